/// An action written as a command line: a dotted path and argument words,
/// e.g. `cart.addItem 3`.
///
/// The arguments are the words a program receives (no shell quoting);
/// ``description`` quotes them so the line can be pasted into a shell.
public struct ActionCommand: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The dotted path, e.g. `products.rows[3].addToCart.plusButtonTapped`.
  public let path: String
  /// The argument words, e.g. `["3"]`.
  public let arguments: [String]

  /// The command `path` with `arguments`.
  public init(path: String, arguments: [String]) {
    self.path = path
    self.arguments = arguments
  }

  /// The command as one shell line: `search.textChanged 'funny cats'`.
  public var description: String {
    ([ShellWord.quoted(path, allowing: ShellWord.brackets)] + arguments.map { ShellWord.quoted($0) })
      .joined(separator: " ")
  }
}
