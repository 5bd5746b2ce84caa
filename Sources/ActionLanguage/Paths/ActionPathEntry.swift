import JSON

/// One action a client can send, as the `actions` message lists it: its
/// command line (`cart.addItem <Int>`) and its JSON form with a
/// placeholder for each value (``ActionTemplate``).
///
/// Plain data, so the daemon can send the list to clients that do not link
/// the features; docs/PROTOCOL.md ("Actions as JSON") says how a client in
/// another language fills it in.
public struct ActionPathEntry: Hashable, Sendable, Codable, CustomStringConvertible {
  /// One value the action takes: an argument word, or an element id of the path.
  public struct Argument: Hashable, Sendable, Codable {
    /// The argument's label, e.g. `orderID`, or for an unlabelled value its
    /// position's coding key, `_0`, `_1`, …; for an element id, the
    /// collection's step, e.g. `rows`.
    public let name: String
    /// How it is written, e.g. `Int`, `Int?`, `counter|dice|products`,
    /// `[Product] (JSON)` (docs/PROTOCOL.md lists the forms).
    public let type: String
    /// A valid value, as JSON: the shape a `(JSON)` type takes, and a value a
    /// client may send when it has none of its own.
    public let example: JSONValue

    /// An argument `name` written as `type`, with `example` a valid value.
    public init(name: String, type: String, example: JSONValue) {
      self.name = name
      self.type = type
      self.example = example
    }
  }

  /// The dotted path, collections shown with their id type:
  /// `products.rows[<id: Int>].addToCart.plusButtonTapped`.
  public let path: String
  /// The words that follow the path, in order; `{"$argument":i}` in ``json``
  /// is where the i-th goes.
  public let arguments: [Argument]
  /// The element ids the path names, outermost first; `{"$id":i}` in
  /// ``json`` is where the i-th goes.
  public let ids: [Argument]
  /// The action's JSON with a placeholder for each argument and id, or `null`
  /// for a recursion marker (a path ending in `<…>`), which is no action.
  public let json: JSONValue
  /// What the action does, in one line.
  public let summary: String
  /// Whether only an effect or the daemon sends the action (``sentBy`` says
  /// which); the daemon refuses it from clients.
  public let isInternal: Bool
  /// Who alone sends an internal action, e.g. `the HTTP effect`; `nil` for
  /// an action clients may send.
  public let sentBy: String?
  /// The path followed by its arguments, as a person writes it:
  /// `cart.addItem <Int>`, `cart.orderPlaced <orderID: Int?>`.
  public let usage: String

  private enum CodingKeys: String, CodingKey {
    case path, arguments, ids, json, summary, sentBy, usage
    case isInternal = "internal"
  }

  /// An entry for `path` taking `arguments`, whose JSON is `json`; `sentBy`
  /// marks an internal action.
  public init(
    path: String, arguments: [Argument], ids: [Argument] = [], json: JSONValue, summary: String,
    sentBy: InternalSender? = nil
  ) {
    self.path = path
    self.arguments = arguments
    self.ids = ids
    self.json = json
    self.summary = summary
    self.isInternal = sentBy != nil
    self.sentBy = sentBy?.description
    self.usage = ([path] + arguments.map { ActionArgument.usage(name: $0.name, type: $0.type) }).joined(separator: " ")
  }

  /// The usage line, as `tcactl actions` prints it.
  public var description: String { usage }

  /// The action built from every argument's and id's example, or `nil` for
  /// a recursion marker.
  public var example: JSONValue? {
    guard json != .null else { return nil }
    return ActionTemplate.filled(json, arguments: arguments.map(\.example), ids: ids.map(\.example))
  }
}
