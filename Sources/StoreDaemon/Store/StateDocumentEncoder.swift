import ComposableCore
import Wire

/// The published JSON document of the state, kept up to date part by part.
///
/// Encoding the whole state after every action costs as much as the state is
/// large: JSONEncoder, then parsing its output back, was four fifths of the
/// work of a counter increment (docs/BENCHMARKS.md). Instead, the state is
/// encoded with a ``JSONMemberCache``: each stored property of the root
/// state that equals the value it was last encoded from keeps its JSON, and
/// only the changed ones are encoded again. An unchanged part is the very
/// same `JSONValue` as before, so `JSONPatch.diff` passes over it at once too.
///
/// The state's own `encode(to:)` runs every time, so the document is what
/// encoding the whole state gives, whatever its coding keys; this relies on
/// equal parts encoding the same, which synthesized Equatable and Codable
/// agree on.
struct StateDocumentEncoder<State: Encodable> {
  private let parts = JSONMemberCache()

  /// How many of the root state's parts the last document encoded rather
  /// than reused.
  var encodedParts: Int { parts.encodedMembers }

  /// The JSON document of `state`.
  ///
  /// - Throws: the encoder's `EncodingError`.
  func document(of state: State) throws -> JSONValue {
    try JSONValueEncoder.encode(state, reusing: parts)
  }
}
