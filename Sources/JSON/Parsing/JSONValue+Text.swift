import FoundationEssentials

extension JSONValue {
  /// The value as compact JSON text with sorted keys: what a command line
  /// shows for a value it cannot write as a word, and accepts back.
  package var compactText: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(self) else { return description }
    return String(decoding: data, as: UTF8.self)
  }

  /// The value that JSON `text` holds, or `nil` when `text` is not JSON.
  package init?(jsonText text: String) {
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { return nil }
    self = value
  }

  /// This value decoded as `type` by ``JSONRules``, with errors whose coding
  /// paths start at the value itself (``decode(_:)`` wraps it in an array first).
  package func decoded<Value: Decodable>(as type: Value.Type) throws -> Value {
    try JSONRules.decoder().decode(Value.self, from: Data(compactText.utf8))
  }
}
