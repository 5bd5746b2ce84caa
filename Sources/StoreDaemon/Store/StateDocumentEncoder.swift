import ComposableCore
import JSON
import Wire

/// Brings the published JSON document of the state up to date after an
/// action, in place, and gives the patch from the last one.
///
/// Encoding the whole state after every action, and diffing it whole,
/// would cost as much as the state is large, whatever the action changed.
/// Instead only the parts of the state that changed are encoded again and
/// compared:
///
/// - a state that lists its parts (``StateParts``, as the seed apps' root
///   state does) is compared with the last one part by part, and each part
///   that differs is encoded, diffed with the document's member and put in
///   its place: the rest of the document is not looked at. A part that
///   lists parts of its own is gone down into the same way, so a member
///   deep inside is set where it is and its patch made from its path, with
///   no encoding or diff of what holds it;
/// - any other state is encoded with a ``JSONMemberCache``: its own
///   `encode(to:)` runs every time, and each stored property that equals
///   the value it was last encoded from keeps its JSON; the document is
///   diffed whole, passing over at once what is the very same value.
///
/// Either way a changed part is encoded with a cache of its own, so inside
/// it too only what changed is encoded again, and the diff passes over its
/// unchanged members at once. This relies on equal parts encoding the same,
/// which synthesized Equatable and Codable agree on.
///
/// The document is the caller's (the publisher's, which reads it for
/// snapshots and `get`): it is changed where it is, not copied, so that an
/// action costs what it changed, not the size of the root object.
///
/// Whether the state lists its parts is found once, when the encoder is made:
/// the daemon's code is generic over the hosted app's state, so it cannot
/// tell from the type at compile time. Being generic, and unspecialized, the
/// code holds no optional of the state: each would cost a lookup of its
/// type's metadata per document. It reads the state through a pointer to
/// where it is (``update(_:to:)``), and brings the last state up to date
/// in place (``StateParts/takeParts(from:_:)``), as every copy of a root
/// state retains each of its references. It is a class so that a call from
/// that generic code finds its type from the instance, not by a lookup of
/// the type's metadata per action.
final class StateDocumentEncoder<State: Encodable> {
  private let members = JSONMemberCache()
  private let counts = Counts()
  /// Updates a document of a ``StateParts`` state part by part; nil for any
  /// other state.
  private let updateParts: ((inout JSONValue, UnsafePointer<State>) throws -> [PatchOperation])?
  /// Forgets the last state, so that the next update encodes the state
  /// whole.
  private let forgetLast: () -> Void
  /// Whether the encoder holds the last state (see ``putBack``).
  private let holdsLast: () -> Bool
  private let putBackLast: (inout State) -> Void

  private final class Counts {
    var encodedParts = 0
  }

  init() {
    let counts = counts
    let parts = (State.self as? any (StateParts & Encodable).Type).map { Self.partsEncoder(for: $0, counts: counts) }
    updateParts = parts?.update
    forgetLast = parts?.forget ?? {}
    holdsLast = parts?.holdsLast ?? { false }
    putBackLast = parts?.putBack ?? { _ in }
  }

  /// Sets a state to the last one an update brought the document to, which
  /// it keeps; nil when it keeps none (before the first update, after one
  /// failed or the state was replaced, and for a state that does not list
  /// its parts). What an action the store refuses is undone to
  /// (`Store.reduceRefusingDropped(_:origin:putBack:)`), instead of a copy
  /// of the root state taken before each action.
  ///
  /// That is the state before the action only if every version reduced
  /// since was given to ``update(_:to:)``, and ``stateWasReplaced()`` was
  /// called whenever the state was set otherwise or a publication failed:
  /// the turn publishes each version as soon as it is reduced, and does.
  var putBack: ((inout State) -> Void)? { holdsLast() ? putBackLast : nil }

  /// The state was put back to an earlier one (a refused batch, a standby
  /// taking over): the next update encodes it whole and diffs it whole,
  /// since what was last encoded is not what the document holds.
  func stateWasReplaced() {
    forgetLast()
  }

  /// How many members the last update encoded rather than reused: the
  /// changed parts at every depth of a state that lists its parts, with the
  /// views derived from them; after a whole encoding (the first, or any
  /// other state's), the root's members.
  var encodedParts: Int { counts.encodedParts }

  /// Makes `document`, the last one published, the JSON document of
  /// `state`, and returns the patch between them
  /// (`JSONPatch.diff(from: old, to: document)`). A ``StateParts`` state's
  /// parts that differ from the last state's are encoded again and put in
  /// place (the first update encodes it all); any other state's
  /// `encode(to:)` runs, and each part that equals what it was last time
  /// keeps its JSON.
  ///
  /// - Throws: the encoder's `EncodingError`; `document` is then unchanged
  ///   (but where a listed part was not in it and the state then failed to
  ///   encode whole: it may hold some of the changed members), and the next
  ///   update encodes the state whole and diffs from it.
  func update(_ document: inout JSONValue, to state: UnsafePointer<State>) throws -> [PatchOperation] {
    if let updateParts { return try updateParts(&document, state) }
    let new = try JSONValueEncoder.encode(state.pointee, reusing: members)
    counts.encodedParts = members.encodedMembers
    let patch = JSONPatch.diff(from: document, to: new)
    document = new
    return patch
  }

  /// ``update(_:to:)`` from a value.
  func update(_ document: inout JSONValue, to state: State) throws -> [PatchOperation] {
    try withUnsafePointer(to: state) { try update(&document, to: $0) }
  }

  /// What a ``StateParts`` state's next update starts from: the last state,
  /// and the caches of its parts.
  private final class Last<Parted: StateParts & Encodable> {
    var state: Parted
    let caches = PartCaches()
    /// The visitor of each update, kept with its lists' capacity.
    let changed: ChangedParts
    /// Each changed member with its old and new JSON, kept the same way.
    var changes: [(path: [String], old: JSONValue?, new: JSONValue?)] = []

    init(state: Parted) {
      self.state = state
      changed = ChangedParts(caches: caches)
    }
  }

  /// The ``Last`` of a parts encoder: none before the first update, and
  /// after an encoding failed, so that the next one encodes it all.
  private final class LastHolder<Parted: StateParts & Encodable> {
    var last: Last<Parted>?
    let members = JSONMemberCache()
  }

  /// The part-by-part updater of `State`, which is `Parted`.
  private static func partsEncoder<Parted: StateParts & Encodable>(
    for parted: Parted.Type, counts: Counts
  ) -> (
    update: (inout JSONValue, UnsafePointer<State>) throws -> [PatchOperation], forget: () -> Void,
    holdsLast: () -> Bool, putBack: (inout State) -> Void
  ) {
    // invariant: called only after State was found to be StateParts, with State itself
    precondition(Parted.self == State.self)
    let holder = LastHolder<Parted>()
    let update = { (document: inout JSONValue, state: UnsafePointer<State>) throws -> [PatchOperation] in
      // Safe: `Parted` is `State` (checked above), so this reads the same
      // value under its other name. The pointer is made mutable only to
      // pass the value on as `inout`, which the compiler need not copy to
      // keep it still during a call (a root state's copy retains each of
      // its references); nothing is written through it.
      try UnsafeMutablePointer(mutating: state).withMemoryRebound(to: Parted.self, capacity: 1) { parted in
        try updateByParts(&document, to: &parted.pointee, holder: holder, counts: counts)
      }
    }
    let putBack = { (state: inout State) in
      guard let last = holder.last else { return }
      // Safe: `Parted` is `State`, as above.
      withUnsafeMutablePointer(to: &state) {
        $0.withMemoryRebound(to: Parted.self, capacity: 1) { $0.pointee = last.state }
      }
    }
    return (update, { holder.last = nil }, { holder.last != nil }, putBack)
  }
}

extension StateDocumentEncoder {
  /// Brings `document` up to `state`, part by part: each part that differs
  /// from the last state's is encoded again, diffed with the member it
  /// replaces and put in its place, and a part that lists parts of its own
  /// is gone down into. The first update encodes it all.
  private static func updateByParts<Parted: StateParts & Encodable>(
    _ document: inout JSONValue, to state: inout Parted, holder: LastHolder<Parted>, counts: Counts
  ) throws -> [PatchOperation] {
    // The last is taken out, and is left out should the encoding fail.
    guard let last = holder.last, case .object = document else {
      holder.last = nil
      let full = try JSONValueEncoder.encode(state, reusing: holder.members)
      let patch = JSONPatch.diff(from: document, to: full)
      document = full
      if case .object(let object) = full {
        holder.last = Last(state: state)
        counts.encodedParts = object.count
      }
      return patch
    }
    holder.last = nil
    // The parts that differ, encoded, before the document is touched: an
    // encoding that fails leaves it as it was. The last state is brought
    // up to date part by part, in place: only the parts that differ are
    // copied.
    let changed = last.changed
    changed.changes.removeAllKeepingRoom()
    try last.state.takeParts(from: state, changed)
    // A root that publishes a view derives it from its parts, some changed.
    if !changed.changes.isEmpty, let view = try last.caches.view(of: state) {
      changed.changes.append((last.caches.path(to: PublishesViewKey.name), view))
    }
    holder.last = last
    counts.encodedParts = changed.changes.count
    guard !changed.changes.isEmpty else { return [] }
    // The old values are let go of at once; only the list's room is kept.
    var changes = last.changes
    last.changes = []
    defer {
      changes.removeAllKeepingRoom()
      last.changes = changes
    }
    for (path, json) in changed.changes {
      do {
        changes.append((path, try document.updateMember(json, at: path), json))
      } catch {
        // A part listed as a member its encoding does not write: the
        // document is brought to the full encoding, with the patch from the
        // document as it was to it.
        holder.last = nil
        let full = try JSONValueEncoder.encode(state, reusing: holder.members)
        let patch = JSONPatch.diff(changes: changes) + JSONPatch.diff(from: document, to: full)
        document = full
        return patch
      }
    }
    return JSONPatch.diff(changes: changes)
  }
}

/// The caches a ``StateParts`` state's parts are encoded with, found by
/// the path to each: a tree that follows the parts that list parts of
/// their own. A state has a few parts, named by literals: they are looked
/// for in a list, which costs less than hashing their keys.
private final class PartCaches {
  /// The keys down to the state at this place.
  private let path: [String]
  private var members: [(key: String, cache: JSONMemberCache)] = []
  private var children: [(key: String, caches: PartCaches)] = []
  private var memberPaths: [(key: String, path: [String])] = []
  /// Whether the state at this place publishes a view, once asked.
  private var publishesView: Bool?

  init(path: [String] = []) {
    self.path = path
  }

  /// The cache of member `key`, which inside it encodes again only what
  /// changed.
  func cache(for key: String) -> JSONMemberCache {
    if let kept = members.first(where: { $0.key == key }) { return kept.cache }
    let made = JSONMemberCache()
    members.append((key, made))
    return made
  }

  /// The caches of the parts of part `key`.
  func child(_ key: String) -> PartCaches {
    if let kept = children.first(where: { $0.key == key }) { return kept.caches }
    let made = PartCaches(path: path + [key])
    children.append((key, made))
    return made
  }

  /// The path to member `key` of the state at this place, made once: a
  /// change holds it without an allocation of its own.
  func path(to key: String) -> [String] {
    if let kept = memberPaths.first(where: { $0.key == key }) { return kept.path }
    let made = path + [key]
    memberPaths.append((key, made))
    return made
  }

  /// The JSON of the view `state`, the value at this place, publishes; nil
  /// when it publishes none. Which it is is asked of its type once.
  func view<Value: Encodable>(of state: Value) throws -> JSONValue? {
    if publishesView == nil { publishesView = JSONValueEncoder.publishesView(Value.self) }
    guard publishesView == true else { return nil }
    return try JSONValueEncoder.view(of: state)
  }
}

/// The members a ``StateParts`` state's update changed, each encoded, with
/// the path to it: what ``StateParts/takeParts(from:_:)`` reports, gone
/// down into each part that lists parts of its own.
private final class ChangedParts: StatePartsVisitor {
  var changes: [(path: [String], json: JSONValue)] = []
  /// The caches of the state whose parts are being taken, which know the
  /// path to it.
  private var caches: PartCaches

  init(caches: PartCaches) {
    self.caches = caches
  }

  /// Only the parts that changed are encoded: every part handed over
  /// differed.
  var visitsUnchanged: Bool { false }

  func visit<Part: Equatable & Encodable>(_ key: String, _ part: Part, differed: Bool) throws {
    let json =
      try JSONValueEncoder.scalar(part, key: key)
      ?? JSONValueEncoder.encodeMember(part, key: key, reusing: caches.cache(for: key))
    changes.append((caches.path(to: key), json))
  }

  func visitNil(_ key: String, differed: Bool) {
    changes.append((caches.path(to: key), .null))
  }

  func visitParts<Part: StateParts & Equatable & Encodable>(
    _ key: String, _ part: inout Part, from current: Part, differed: Bool
  ) throws {
    let outer = caches
    caches = outer.child(key)
    defer { caches = outer }
    let before = changes.count
    try part.takeParts(from: current, self)
    if changes.count > before, let view = try caches.view(of: part) {
      changes.append((caches.path(to: PublishesViewKey.name), view))
    }
  }
}

extension Array {
  /// Removes every element and keeps the room, for the lists each update
  /// fills with one or two changes: `removeAll(keepingCapacity:)` goes
  /// through the generic `replaceSubrange`, several times the cost of
  /// removing them one by one.
  fileprivate mutating func removeAllKeepingRoom() {
    while !isEmpty { removeLast() }
  }
}
