import EffectRequests
import JSON

/// Typed access to the members of a message object, with errors that name the
/// field and the type expected.
extension JSONObject {
  func string(_ key: String, in type: String) throws(MessageError) -> String {
    guard case .string(let value)? = self[key] else { throw missing(key, "a string", in: type) }
    return value
  }

  func optionalString(_ key: String, in type: String) throws(MessageError) -> String? {
    switch self[key] {
    case nil, .null?: return nil
    case .string(let value)?: return value
    default: throw missing(key, "a string", in: type)
    }
  }

  func int(_ key: String, in type: String) throws(MessageError) -> Int {
    guard case .int(let value)? = self[key] else { throw missing(key, "an integer", in: type) }
    return value
  }

  func optionalInt(_ key: String, in type: String) throws(MessageError) -> Int? {
    switch self[key] {
    case nil, .null?: return nil
    case .int(let value)?: return value
    default: throw missing(key, "an integer", in: type)
    }
  }

  func optionalUInt64(_ key: String, in type: String) throws(MessageError) -> UInt64? {
    guard let value = try optionalInt(key, in: type) else { return nil }
    guard value >= 0 else {
      throw MessageError(.invalidMessage, "'\(type)': '\(key)' must not be negative, got \(value)")
    }
    return UInt64(value)
  }

  func optionalBool(_ key: String, in type: String) throws(MessageError) -> Bool? {
    switch self[key] {
    case nil, .null?: return nil
    case .bool(let value)?: return value
    default: throw missing(key, "true or false", in: type)
    }
  }

  func strings(_ key: String, in type: String) throws(MessageError) -> [String] {
    switch self[key] {
    case nil, .null?: return []
    case .array(let values)?:
      var strings: [String] = []
      for value in values {
        guard case .string(let string) = value else { throw missing(key, "an array of strings", in: type) }
        strings.append(string)
      }
      return strings
    default: throw missing(key, "an array of strings", in: type)
    }
  }

  private func missing(_ key: String, _ expected: String, in type: String) -> MessageError {
    let found = self[key].map { "got \($0)" } ?? "it is missing"
    return MessageError(.invalidMessage, "'\(type)' needs '\(key)' to be \(expected); \(found)")
  }
}
