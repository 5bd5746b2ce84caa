/// One action a command line can send, as `tcactl actions` lists it:
/// `cart.addItem <productID: Int>  Adds one unit of a product to the cart`.
///
/// Plain data, so the daemon can send the list to clients that do not link
/// the features.
public struct ActionPathEntry: Hashable, Sendable, Codable, CustomStringConvertible {
  /// One argument the action takes.
  public struct Argument: Hashable, Sendable, Codable {
    /// The argument's name, e.g. `productID`.
    public let name: String
    /// How it is written, e.g. `Int`, `counter|dice|products`, `[Product] (JSON)`.
    public let type: String

    /// An argument `name` written as `type`.
    public init(name: String, type: String) {
      self.name = name
      self.type = type
    }
  }

  /// The dotted path, collections shown with their id type:
  /// `products.rows[<id: Int>].addToCart.plusButtonTapped`.
  public let path: String
  /// The words that follow the path, in order.
  public let arguments: [Argument]
  /// What the action does, in one line.
  public let summary: String

  /// An entry for `path` taking `arguments`.
  public init(path: String, arguments: [Argument], summary: String) {
    self.path = path
    self.arguments = arguments
    self.summary = summary
  }

  /// The path followed by its arguments: `cart.addItem <productID: Int>`.
  public var usage: String {
    ([path] + arguments.map { "<\($0.name): \($0.type)>" }).joined(separator: " ")
  }

  /// The usage line, as `tcactl actions` prints it.
  public var description: String { usage }
}
