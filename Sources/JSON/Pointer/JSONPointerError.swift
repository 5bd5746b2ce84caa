/// Why a string is not a JSON Pointer, or why a pointer names no value in a
/// document. Each case carries the pointers and tokens involved.
public enum JSONPointerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A non-empty pointer that does not begin with `/`.
  case missingLeadingSlash(String)
  /// A `~` not followed by `0` or `1`.
  case invalidEscape(String)
  /// The object at `container` has no member `key`.
  case memberNotFound(key: String, container: JSONPointer)
  /// `index` is past the end of the array of `count` elements at `container`.
  case indexOutOfRange(index: Int, count: Int, container: JSONPointer)
  /// `token` is not an array index here: not canonical decimal (`01`, `+1`,
  /// `x`), or `-` where an existing element is required.
  case invalidIndex(token: String, count: Int, container: JSONPointer)
  /// The value at `container` is a scalar, so it has nothing named `token`.
  case notAContainer(token: String, container: JSONPointer, found: String)

  public var description: String {
    switch self {
    case .missingLeadingSlash(let string):
      "JSON pointer \"\(string)\" must be empty (the whole document) or start with '/': write \"/\(string)\""
    case .invalidEscape(let string):
      "invalid escape in JSON pointer \"\(string)\": '~' must be followed by '0' (for '~') or '1' (for '/')"
    case .memberNotFound(let key, let container):
      "no member \"\(key)\" in the object at \(Self.place(container))"
    case .indexOutOfRange(let index, let count, let container):
      "index \(index) is out of range for \(Self.array(count)) at \(Self.place(container))"
    case .invalidIndex(let token, let count, let container):
      if token == "-" {
        "\"-\" (past the end) names no element of \(Self.array(count)) at \(Self.place(container)); "
          + "it is allowed only as the target of add, move and copy"
      } else {
        "\"\(token)\" is not an index for \(Self.array(count)) at \(Self.place(container)): "
          + "use decimal digits without leading zeros"
      }
    case .notAContainer(let token, let container, let found):
      "\(Self.place(container)) is \(found), not an object or array, so it has no member \"\(token)\""
    }
  }

  private static func place(_ pointer: JSONPointer) -> String {
    pointer.tokens.isEmpty ? "the document root" : "\"\(pointer)\""
  }

  private static func array(_ count: Int) -> String {
    count == 0 ? "the empty array" : "the array of \(count) element\(count == 1 ? "" : "s")"
  }
}
