import JSON

/// Parses JSON text in a test; a parse error fails the test with its message.
func json(_ text: String) throws -> JSONValue {
  try JSONParser.parse(text.utf8)
}

/// The canonical JSON of `value` as a string.
func canonical(_ value: JSONValue) -> String {
  String(decoding: CanonicalJSON.encode(value), as: UTF8.self)
}

/// The canonical JSON of a patch as a string.
func canonical(_ operations: [PatchOperation]) -> String {
  canonical(JSONPatch.json(operations))
}

/// A pointer from a string known to be valid.
func pointer(_ string: String) throws -> JSONPointer {
  try JSONPointer(string)
}
