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
///
/// Whether the state lists its parts is found once, when the encoder is made:
/// the daemon's code is generic over the hosted app's state, so it cannot
/// tell from the type at compile time.
struct StateDocumentEncoder<State: Encodable> {
  private let members = JSONMemberCache()
  private let counts = Counts()
  /// Encodes a ``StateParts`` state part by part; nil for any other state.
  private let encodeParts: ((State) throws -> JSONValue)?

  private final class Counts {
    var encodedParts = 0
  }

  init() {
    let counts = counts
    encodeParts = (State.self as? any (StateParts & Encodable).Type).map { Self.partsEncoder(for: $0, counts: counts) }
  }

  /// How many of the root state's parts the last document encoded rather
  /// than reused.
  var encodedParts: Int { counts.encodedParts }

  /// The JSON document of `state`. A ``StateParts`` state's is the last
  /// document with each part that differs from the last state's encoded
  /// again (the first is the full encoding); any other state's `encode(to:)`
  /// runs, and each part that equals what it was last time keeps its JSON.
  ///
  /// - Throws: the encoder's `EncodingError`.
  func document(of state: State) throws -> JSONValue {
    if let encodeParts { return try encodeParts(state) }
    let document = try JSONValueEncoder.encode(state, reusing: members)
    counts.encodedParts = members.encodedMembers
    return document
  }

  /// What a ``StateParts`` state's next document is made from.
  private final class Last<Parted: StateParts & Encodable> {
    /// The last state and its document; nil (and empty) before the first,
    /// and after an encoding failed, so that the next one encodes it all.
    var state: Parted?
    var document = JSONObject()
    /// Each part's cache, for what is inside it, by key.
    var caches: [String: JSONMemberCache] = [:]
    let members = JSONMemberCache()
  }

  /// The part-by-part encoder of `State`, which is `Parted`.
  private static func partsEncoder<Parted: StateParts & Encodable>(
    for parted: Parted.Type, counts: Counts
  ) -> (State) throws -> JSONValue {
    precondition(Parted.self == State.self)
    let last = Last<Parted>()
    return { state in
      // Safe: `Parted` is `State` (checked above), so this reads the same
      // value under its other name, without copying it.
      try withUnsafePointer(to: state) { pointer in
        try pointer.withMemoryRebound(to: Parted.self, capacity: 1) { parted in
          try document(of: parted.pointee, last: last, counts: counts)
        }
      }
    }
  }
}

extension StateDocumentEncoder {
  /// The last document, with each part of `state` that differs from the last
  /// state's encoded again; the first is the full encoding.
  private static func document<Parted: StateParts & Encodable>(
    of state: Parted, last: Last<Parted>, counts: Counts
  ) throws -> JSONValue {
    // The last state and document are taken out (moved, not copied), so
    // that the document is changed in place, and are left out should the
    // encoding fail.
    var previous: Parted?
    swap(&previous, &last.state)
    guard let previous else {
      let full = try JSONValueEncoder.encode(state, reusing: last.members)
      guard case .object(let object) = full else { return full }
      (last.state, last.document, counts.encodedParts) = (state, object, object.count)
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
    (last.state, last.document, counts.encodedParts) = (state, document, encoded)
    return .object(document)
  }
}
