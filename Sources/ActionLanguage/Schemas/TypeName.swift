/// Readable names of Swift types for help text and errors: `Cart.Action`,
/// `[Product]`, `Int?`, without module prefixes.
enum TypeName {
  /// The readable name of `type`.
  static func of(_ type: Any.Type) -> String {
    var parser = Parser(Array(String(reflecting: type)))
    guard let name = parser.type(), parser.isAtEnd else { return String(describing: type) }
    return name
  }

  /// Reads `Module.Outer.Inner<Argument, …>` and rewrites it without the
  /// module, with the standard library's sugar for arrays, optionals and
  /// dictionaries.
  private struct Parser {
    let characters: [Character]
    var position = 0

    init(_ characters: [Character]) {
      self.characters = characters
    }

    var isAtEnd: Bool { position == characters.count }

    mutating func type() -> String? {
      var components: [String] = []
      repeat {
        guard let component = identifier() else { return nil }
        components.append(component)
      } while consume(".")
      var arguments: [String] = []
      if consume("<") {
        repeat {
          while consume(" ") {}
          guard let argument = type() else { return nil }
          arguments.append(argument)
        } while consume(",")
        guard consume(">") else { return nil }
      }
      let name = components.count > 1 ? components.dropFirst().joined(separator: ".") : components[0]
      switch (name, arguments.count) {
      case ("Array", 1): return "[\(arguments[0])]"
      case ("Optional", 1): return "\(arguments[0])?"
      case ("Dictionary", 2): return "[\(arguments[0]): \(arguments[1])]"
      case (_, 0): return name
      default: return "\(name)<\(arguments.joined(separator: ", "))>"
      }
    }

    private mutating func identifier() -> String? {
      let start = position
      while position < characters.count,
        characters[position].isLetter || characters[position].isNumber
          || characters[position] == "_"
      {
        position += 1
      }
      return position > start ? String(characters[start..<position]) : nil
    }

    private mutating func consume(_ character: Character) -> Bool {
      guard position < characters.count, characters[position] == character else { return false }
      position += 1
      return true
    }
  }
}
