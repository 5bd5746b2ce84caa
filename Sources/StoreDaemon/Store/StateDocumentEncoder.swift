import ComposableCore
import JSON
import Wire

/// The published JSON document of the state, kept up to date part by part.
///
/// Encoding the whole state after every action would cost as much as the
/// state is large, whatever the action changed. Instead only the parts of the
/// state that changed are encoded again:
///
/// - a state that lists its parts (``StateParts``, as the app's root state
///   does) is compared with the last one part by part, and each part that
///   differs is encoded and put in the last document in place of the old;
/// - any other state is encoded with a ``JSONMemberCache``: its own
///   `encode(to:)` runs every time, and each stored property that equals
///   the value it was last encoded from keeps its JSON.
///
/// Either way a changed part is encoded with a cache of its own, so inside
/// it too only what changed is encoded again, and an unchanged part is the
/// very same `JSONValue` as before, so `JSONPatch.diff` passes over it at
/// once. This relies on equal parts encoding the same, which synthesized
/// Equatable and Codable agree on.
struct StateDocumentEncoder<State: Encodable> {
  private let members = JSONMemberCache()
  private let last = Last()

  /// What a ``StateParts`` state's next document is made from, and what the
  /// last document encoded (for either kind of state).
  private final class Last {
    /// The last state and its document; nil (and empty) before the first,
    /// and after an encoding failed, so that the next one encodes it all.
    var state: State?
    var document = JSONObject()
    /// Each part's cache, for what is inside it, by key.
    var caches: [String: JSONMemberCache] = [:]
    var encodedParts = 0
  }

  /// How many of the root state's parts the last document encoded rather
  /// than reused.
  var encodedParts: Int { last.encodedParts }

  /// The JSON document of `state`: its `encode(to:)` runs, and each part
  /// that equals what it was last time keeps its JSON.
  ///
  /// - Throws: the encoder's `EncodingError`.
  func document(of state: State) throws -> JSONValue {
    let document = try JSONValueEncoder.encode(state, reusing: members)
    last.encodedParts = members.encodedMembers
    return document
  }
}

extension StateDocumentEncoder where State: StateParts {
  /// The JSON document of `state`: the last document, with each part that
  /// differs from the last state's encoded again. The first is the full
  /// encoding.
  ///
  /// - Throws: the encoder's `EncodingError`.
  func document(of state: State) throws -> JSONValue {
    // The last state and document are taken out (moved, not copied), so
    // that the document is changed in place, and are left out should the
    // encoding fail.
    var previous: State?
    swap(&previous, &last.state)
    guard let previous else {
      let full = try JSONValueEncoder.encode(state, reusing: members)
      guard case .object(let object) = full else { return full }
      (last.state, last.document, last.encodedParts) = (state, object, object.count)
      return full
    }
    var document = JSONObject()
    swap(&document, &last.document)
    var encoded = 0
    try state.forEachPart(since: previous) { key, differs, value in
      guard differs else { return }
      encoded += 1
      guard let value = value() else {
        document[key] = .null
        return
      }
      let cache = last.caches[key] ?? JSONMemberCache()
      last.caches[key] = cache
      document[key] = try JSONValueEncoder.encodeMember(value, key: key, reusing: cache)
    }
    (last.state, last.document, last.encodedParts) = (state, document, encoded)
    return .object(document)
  }
}
