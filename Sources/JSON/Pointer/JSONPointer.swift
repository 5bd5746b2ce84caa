/// A JSON Pointer (RFC 6901): the location of a value inside a JSON document,
/// as the sequence of member names and array indices leading to it.
///
/// Written as a string, each token is preceded by `/`, with `~` escaped as
/// `~0` and `/` as `~1`: the tokens `["a/b", "m~n"]` are `/a~1b/m~0n`. The
/// empty string is the whole document. Tokens are kept unescaped; escaping
/// happens only in ``description`` and ``init(_:)``.
///
/// Into an array, a token must be an index in canonical decimal (`0`, `12`;
/// never `01` or `+1`); `-` names the position past the last element, which
/// only an RFC 6902 `add` (and the target of `move` and `copy`) may use.
public struct JSONPointer: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The unescaped reference tokens, from the root down.
  public var tokens: [String]

  /// The pointer to the whole document: `""`.
  public static let root = JSONPointer(tokens: [])

  /// A pointer from unescaped tokens.
  public init(tokens: [String]) {
    self.tokens = tokens
  }

  /// Parses a pointer's string form.
  ///
  /// - Throws: ``JSONPointerError/missingLeadingSlash(_:)`` for a non-empty
  ///   string not starting with `/`; ``JSONPointerError/invalidEscape(_:)`` for
  ///   a `~` not followed by `0` or `1`.
  public init(_ string: String) throws(JSONPointerError) {
    guard !string.isEmpty else {
      self.tokens = []
      return
    }
    guard string.utf8.first == UInt8(ascii: "/") else { throw .missingLeadingSlash(string) }
    var tokens: [String] = []
    for escaped in string.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
      guard escaped.contains(UInt8(ascii: "~")) else {
        tokens.append(String(decoding: escaped, as: UTF8.self))
        continue
      }
      var bytes: [UInt8] = []
      bytes.reserveCapacity(escaped.count)
      var iterator = escaped.makeIterator()
      while let byte = iterator.next() {
        guard byte == UInt8(ascii: "~") else {
          bytes.append(byte)
          continue
        }
        switch iterator.next() {
        case UInt8(ascii: "0"): bytes.append(UInt8(ascii: "~"))
        case UInt8(ascii: "1"): bytes.append(UInt8(ascii: "/"))
        default: throw .invalidEscape(string)
        }
      }
      tokens.append(String(decoding: bytes, as: UTF8.self))
    }
    self.tokens = tokens
  }

  /// The escaped string form, e.g. `/a~1b/0`; `""` for the root.
  public var description: String {
    var result = ""
    for token in tokens {
      result += "/"
      result += Self.escape(token)
    }
    return result
  }

  /// `token` with `~` written as `~0` and `/` as `~1`.
  public static func escape(_ token: String) -> String {
    guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
    return token.replacing("~", with: "~0").replacing("/", with: "~1")
  }

  /// Whether this is the pointer to the whole document.
  public var isRoot: Bool { tokens.isEmpty }

  /// The pointer to the containing array or object; `nil` for the root.
  public var parent: JSONPointer? {
    tokens.isEmpty ? nil : JSONPointer(tokens: Array(tokens.dropLast()))
  }

  /// The last token; `nil` for the root.
  public var lastToken: String? { tokens.last }

  /// This pointer extended by one member name or `-`.
  public func appending(_ token: String) -> JSONPointer {
    JSONPointer(tokens: tokens + [token])
  }

  /// This pointer extended by one array index.
  public func appending(index: Int) -> JSONPointer {
    appending(String(index))
  }

  /// Whether `other` is this location or inside it: every pointer is a prefix
  /// of itself, and the root is a prefix of every pointer.
  public func isPrefix(of other: JSONPointer) -> Bool {
    tokens.count <= other.tokens.count && other.tokens.starts(with: tokens)
  }

  /// This pointer relative to `base`, if `base` is a prefix of it:
  /// `/a/b/c` relative to `/a` is `/b/c`; relative to itself it is the root.
  public func relative(to base: JSONPointer) -> JSONPointer? {
    base.isPrefix(of: self) ? JSONPointer(tokens: Array(tokens[base.tokens.count...])) : nil
  }

  /// `base` extended by this pointer's tokens.
  public func rebased(onto base: JSONPointer) -> JSONPointer {
    JSONPointer(tokens: base.tokens + tokens)
  }

  /// The value this pointer names in `document`.
  ///
  /// - Throws: ``JSONPointerError`` naming the first token that does not
  ///   resolve and the container it was looked up in.
  public func resolve(in document: JSONValue) throws(JSONPointerError) -> JSONValue {
    var current = document
    for level in tokens.indices {
      let token = tokens[level]
      switch current {
      case .object(let members):
        guard let member = members[token] else {
          throw .memberNotFound(key: token, container: prefix(level))
        }
        current = member
      case .array(let elements):
        current = elements[try existingIndex(token, count: elements.count, level: level)]
      default:
        throw .notAContainer(token: token, container: prefix(level), found: current.kindDescription)
      }
    }
    return current
  }

  /// The value this pointer names in `document`, or `nil` if there is none.
  public func value(in document: JSONValue) -> JSONValue? {
    try? resolve(in: document)
  }

  /// The array index that `token` denotes: canonical decimal only (`0`,
  /// `17`; not `01`, `+1`, `1.0` or `-`), and representable as `Int`.
  public static func arrayIndex(_ token: String) -> Int? {
    let utf8 = token.utf8
    guard let first = utf8.first, first &- UInt8(ascii: "0") < 10 else { return nil }
    if first == UInt8(ascii: "0") { return utf8.count == 1 ? 0 : nil }
    var value = 0
    for byte in utf8 {
      let digit = byte &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) = times10.addingReportingOverflow(Int(digit))
      guard !overflow1, !overflow2 else { return nil }
      value = next
    }
    return value
  }

  // MARK: Resolution helpers shared with JSONPatch

  /// The pointer made of the first `level` tokens.
  func prefix(_ level: Int) -> JSONPointer {
    JSONPointer(tokens: Array(tokens[..<level]))
  }

  /// The index of an existing element (`0..<count`) named by `token`, the
  /// token at `level` of this pointer.
  func existingIndex(_ token: String, count: Int, level: Int) throws(JSONPointerError) -> Int {
    guard let index = Self.arrayIndex(token) else {
      throw .invalidIndex(token: token, count: count, container: prefix(level))
    }
    guard index < count else { throw .indexOutOfRange(index: index, count: count, container: prefix(level)) }
    return index
  }

  /// The position (`0...count`, `-` meaning `count`) where an element named
  /// by `token`, the token at `level` of this pointer, may be inserted.
  func insertionIndex(_ token: String, count: Int, level: Int) throws(JSONPointerError) -> Int {
    if token == "-" { return count }
    guard let index = Self.arrayIndex(token) else {
      throw .invalidIndex(token: token, count: count, container: prefix(level))
    }
    guard index <= count else {
      throw .indexOutOfRange(index: index, count: count, container: prefix(level))
    }
    return index
  }

  // MARK: Codable

  /// Decodes the string form.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let string = try container.decode(String.self)
    do {
      try self.init(string)
    } catch {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
  }

  /// Encodes the string form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
