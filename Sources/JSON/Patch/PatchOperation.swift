/// One RFC 6902 JSON Patch operation.
///
/// Encoded exactly as the RFC writes it — an object with `op`, `path`, and
/// `from` or `value` where the operation has them:
///
/// ```json
/// {"op":"add","path":"/items/0","value":{"id":7}}
/// {"op":"move","from":"/items/3","path":"/items/0"}
/// ```
///
/// Decoding ignores unknown members (RFC 6902 section 4) and fails, naming
/// the member, when `op` is unknown or a required member is missing.
public enum PatchOperation: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Inserts `value` at `path`: into an array before the element at that index
  /// (`-` appends), or as an object member (replacing one of that name).
  case add(path: JSONPointer, value: JSONValue)
  /// Removes the value at `path`, which must exist.
  case remove(path: JSONPointer)
  /// Replaces the value at `path`, which must exist.
  case replace(path: JSONPointer, value: JSONValue)
  /// Removes the value at `from` and adds it at `path`.
  case move(from: JSONPointer, path: JSONPointer)
  /// Adds a copy of the value at `from` at `path`.
  case copy(from: JSONPointer, path: JSONPointer)
  /// Checks that the value at `path` equals `value` (numbers numerically).
  case test(path: JSONPointer, value: JSONValue)

  /// The `op` member: `add`, `remove`, `replace`, `move`, `copy` or `test`.
  public var name: String {
    switch self {
    case .add: "add"
    case .remove: "remove"
    case .replace: "replace"
    case .move: "move"
    case .copy: "copy"
    case .test: "test"
    }
  }

  /// The location the operation targets.
  public var path: JSONPointer {
    switch self {
    case .add(let path, _), .remove(let path), .replace(let path, _), .move(_, let path), .copy(_, let path),
      .test(let path, _):
      path
    }
  }

  /// The source of a `move` or `copy`.
  public var from: JSONPointer? {
    switch self {
    case .move(let from, _), .copy(let from, _): from
    default: nil
    }
  }

  /// The value of an `add`, `replace` or `test`.
  public var value: JSONValue? {
    switch self {
    case .add(_, let value), .replace(_, let value), .test(_, let value): value
    default: nil
    }
  }

  /// The operation as its RFC 6902 JSON object.
  public var json: JSONValue {
    // Built in key order, which is the object's own: nothing to sort.
    var members: [JSONObject.Element] = []
    members.reserveCapacity(4)
    if let from { members.append(("from", .string(from.description))) }
    members.append(("op", .string(name)))
    members.append(("path", .string(path.description)))
    if let value { members.append(("value", value)) }
    return .object(JSONObject(members))
  }

  /// The canonical JSON of the operation, e.g. `{"op":"remove","path":"/a/0"}`.
  public var description: String {
    String(decoding: CanonicalJSON.encode(json), as: UTF8.self)
  }

  /// A short form for error messages, without the value: `remove "/a/0"`.
  var summary: String {
    if let from { return "\(name) from \"\(from)\" to \"\(path)\"" }
    return "\(name) \"\(path)\""
  }

  // MARK: Reading

  /// Why a JSON value is not an operation.
  struct Malformed: Error {
    let message: String
  }

  /// Reads an operation from its RFC 6902 JSON object.
  init(json: JSONValue) throws(Malformed) {
    guard case .object(let members) = json else {
      throw Malformed(
        message: "an operation must be an object such as {\"op\":\"add\",\"path\":\"/a\",\"value\":1}, "
          + "found \(json.kindDescription)")
    }
    let operations = "add, remove, replace, move, copy or test"
    guard let op = members["op"] else { throw Malformed(message: "missing \"op\": expected \(operations)") }
    guard case .string(let name) = op else {
      throw Malformed(message: "\"op\" must be a string, found \(op.kindDescription): expected \(operations)")
    }

    func pointer(_ member: String) throws(Malformed) -> JSONPointer {
      guard let value = members[member] else {
        throw Malformed(message: "missing \"\(member)\" for \"\(name)\"")
      }
      guard case .string(let string) = value else {
        throw Malformed(message: "\"\(member)\" must be a JSON pointer string, found \(value.kindDescription)")
      }
      do {
        return try JSONPointer(string)
      } catch {
        throw Malformed(message: "\"\(member)\": \(error)")
      }
    }
    func value() throws(Malformed) -> JSONValue {
      guard let value = members["value"] else { throw Malformed(message: "missing \"value\" for \"\(name)\"") }
      return value
    }

    switch name {
    case "add": self = .add(path: try pointer("path"), value: try value())
    case "remove": self = .remove(path: try pointer("path"))
    case "replace": self = .replace(path: try pointer("path"), value: try value())
    case "move": self = .move(from: try pointer("from"), path: try pointer("path"))
    case "copy": self = .copy(from: try pointer("from"), path: try pointer("path"))
    case "test": self = .test(path: try pointer("path"), value: try value())
    default: throw Malformed(message: "unknown op \"\(name)\": expected \(operations)")
    }
  }

  // MARK: Codable

  /// Decodes the RFC 6902 object.
  public init(from decoder: any Decoder) throws {
    let json = try JSONValue(from: decoder)
    do {
      try self.init(json: json)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.message))
    }
  }

  private enum CodingKeys: String, CodingKey {
    case op, from, path, value
  }

  /// Encodes the RFC 6902 object.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .op)
    if let from { try container.encode(from, forKey: .from) }
    try container.encode(path, forKey: .path)
    if let value { try container.encode(value, forKey: .value) }
  }
}
