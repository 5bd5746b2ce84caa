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
/// tell from the type at compile time. Being generic, and unspecialized, the
/// code holds no optional of the state: each would cost a lookup of its
/// type's metadata per document. It reads the state through a pointer to
/// where it is (``document(at:)``), and brings the last state up to date
/// in place (``StateParts/takeParts(from:_:)``), as every copy of a root
/// state retains each of its references.
struct StateDocumentEncoder<State: Encodable> {
  private let members = JSONMemberCache()
  private let counts = Counts()
  /// Encodes a ``StateParts`` state part by part; nil for any other state.
  private let encodeParts: ((UnsafePointer<State>) throws -> JSONValue)?
  /// Forgets the last state and document, so that the next document is
  /// encoded whole.
  private let forgetLast: () -> Void

  private final class Counts {
    var encodedParts = 0
    /// The members the last document encoded again, the others being the
    /// very same values as before; nil when it is not known.
    var changedMembers: [String]?
  }

  init() {
    let counts = counts
    let parts = (State.self as? any (StateParts & Encodable).Type).map { Self.partsEncoder(for: $0, counts: counts) }
    encodeParts = parts?.encode
    forgetLast = parts?.forget ?? {}
  }

  /// The state was put back to an earlier one (a refused batch, a standby
  /// taking over): the next document is encoded whole, and diffed whole,
  /// since what it last encoded is not what was published.
  func stateWasReplaced() {
    forgetLast()
  }

  /// How many of the root state's parts the last document encoded rather
  /// than reused.
  var encodedParts: Int { counts.encodedParts }

  /// The members of the last document that may differ from the one before
  /// (``JSONPatch/diff(from:to:members:)``); nil when any may.
  var changedMembers: [String]? { counts.changedMembers }

  /// The JSON document of `state`. A ``StateParts`` state's is the last
  /// document with each part that differs from the last state's encoded
  /// again (the first is the full encoding); any other state's `encode(to:)`
  /// runs, and each part that equals what it was last time keeps its JSON.
  ///
  /// - Throws: the encoder's `EncodingError`.
  func document(at state: UnsafePointer<State>) throws -> JSONValue {
    if let encodeParts { return try encodeParts(state) }
    let document = try JSONValueEncoder.encode(state.pointee, reusing: members)
    counts.encodedParts = members.encodedMembers
    counts.changedMembers = nil
    return document
  }

  /// The JSON document of `state`, as ``document(at:)`` makes it.
  func document(of state: State) throws -> JSONValue {
    try withUnsafePointer(to: state) { try document(at: $0) }
  }

  /// What a ``StateParts`` state's next document is made from: the last
  /// state and its document.
  private final class Last<Parted: StateParts & Encodable> {
    var state: Parted
    var document: JSONObject
    /// Each part's cache, for what is inside it, by key.
    var caches: [String: JSONMemberCache] = [:]

    init(state: Parted, document: JSONObject) {
      self.state = state
      self.document = document
    }
  }

  /// The ``Last`` of a parts encoder: none before the first document, and
  /// after an encoding failed, so that the next one encodes it all.
  private final class LastHolder<Parted: StateParts & Encodable> {
    var last: Last<Parted>?
    let members = JSONMemberCache()
  }

  /// The part-by-part encoder of `State`, which is `Parted`.
  private static func partsEncoder<Parted: StateParts & Encodable>(
    for parted: Parted.Type, counts: Counts
  ) -> (encode: (UnsafePointer<State>) throws -> JSONValue, forget: () -> Void) {
    // invariant: called only after State was found to be StateParts, with State itself
    precondition(Parted.self == State.self)
    let holder = LastHolder<Parted>()
    let encode = { (state: UnsafePointer<State>) throws -> JSONValue in
      // Safe: `Parted` is `State` (checked above), so this reads the same
      // value under its other name. The pointer is made mutable only to
      // pass the value on as `inout`, which the compiler need not copy to
      // keep it still during a call (a root state's copy retains each of
      // its references); nothing is written through it.
      try UnsafeMutablePointer(mutating: state).withMemoryRebound(to: Parted.self, capacity: 1) { parted in
        try document(of: &parted.pointee, holder: holder, counts: counts)
      }
    }
    return (encode, { holder.last = nil })
  }
}

extension StateDocumentEncoder {
  /// The last document, with each part of `state` that differs from the last
  /// state's encoded again; the first is the full encoding.
  private static func document<Parted: StateParts & Encodable>(
    of state: inout Parted, holder: LastHolder<Parted>, counts: Counts
  ) throws -> JSONValue {
    // The last is taken out, and is left out should the encoding fail.
    guard let last = holder.last else {
      counts.changedMembers = nil
      let full = try JSONValueEncoder.encode(state, reusing: holder.members)
      guard case .object(let object) = full else { return full }
      holder.last = Last(state: state, document: object)
      counts.encodedParts = object.count
      return full
    }
    holder.last = nil
    // The document is moved out, not copied, so that it is changed in place.
    var document = JSONObject()
    swap(&document, &last.document)
    var changed: [String] = []
    counts.changedMembers = nil
    // The last state is brought up to date part by part, in place: only
    // the parts that differ are copied.
    try last.state.takeParts(from: state) { key, differed, value in
      guard differed else { return }
      changed.append(key)
      guard let value = value() else {
        document[key] = .null
        return
      }
      let cache = last.caches[key] ?? JSONMemberCache()
      last.caches[key] = cache
      document[key] = try JSONValueEncoder.encodeMember(value, key: key, reusing: cache)
    }
    // A root that publishes a view derives it from its parts, some changed.
    let encoded = changed.count
    if encoded > 0, JSONValueEncoder.publishesView(Parted.self),
      case .object(let viewed) = try JSONValueEncoder.withView(of: state, .object(document))
    {
      document = viewed
      changed.append(PublishesViewKey.name)
    }
    last.document = document
    holder.last = last
    counts.encodedParts = encoded
    counts.changedMembers = changed
    return .object(document)
  }
}
