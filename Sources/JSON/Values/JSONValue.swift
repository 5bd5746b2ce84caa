/// The elements of a JSON array, chunked so that a large array's copies
/// share what they did not change (see ``ChunkedArray``).
public typealias JSONArray = ChunkedArray<JSONValue>

/// A JSON value: what a binding carries, and the shape of state on the wire.
///
/// Integers and fractional numbers are kept apart so that an `Int` field round-
/// trips exactly. Objects encode with their keys sorted when the encoder sorts.
public enum JSONValue: Hashable, Sendable, Codable, CustomStringConvertible {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array(JSONArray)
  case object(JSONObject)

  /// An array of `elements`.
  public static func array(_ elements: [JSONValue]) -> JSONValue { .array(JSONArray(elements)) }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .int(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else if let value = try? container.decode([String: JSONValue].self) {
      self = .object(JSONObject(value))
    } else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected a JSON value.")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .int(let value): try container.encode(value)
    case .double(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// The value's canonical JSON text (``CanonicalJSON/text(_:)``).
  public var description: String { CanonicalJSON.text(self) }
}
