/// The JSON of the members of the last value encoded with it, each kept with
/// the value it was encoded from (``JSONValueEncoder/encode(_:reusing:)``).
///
/// The daemon publishes its whole state as one JSON document after every
/// batch, but an action changes one or two of the state's parts: this cache
/// lets the unchanged parts be compared instead of encoded again. Equality
/// is what decides, through the member type's own `Equatable`, found once
/// when the member is encoded and kept beside it; storage an action did not
/// touch compares by identity at once.
///
/// The cache is a tree: a member that changed is encoded again with a cache
/// of its own, so that inside it only what changed is encoded again, down to
/// the elements of an array of `Equatable` elements, which are compared with
/// the array encoded last time at the same positions. A change to one row of
/// a hundred thousand costs comparisons, not a hundred thousand encodings.
///
/// Not thread-safe: one encoding at a time, on one thread (the daemon's store
/// loop).
public final class JSONMemberCache {
  /// A class, so that carrying an entry over from the last encoding is one
  /// retain rather than a copy of its five fields.
  private final class Entry {
    let key: String
    /// The member's type, for which ``equality`` was made.
    let type: ObjectIdentifier
    /// An ``Equality`` of the member's type, or nil when it is not Equatable.
    let equality: AnyObject?
    let json: JSONValue
    /// The cache the member's own value was encoded with.
    let children: JSONMemberCache

    init(key: String, type: ObjectIdentifier, equality: AnyObject?, json: JSONValue, children: JSONMemberCache) {
      (self.key, self.type, self.equality, self.json, self.children) = (key, type, equality, json, children)
    }
  }

  /// Tells whether a value equals the one a member was encoded from.
  private final class Equality<Value> {
    let value: Value
    /// `Value`'s `==`, found by a runtime conformance lookup once and handed
    /// on to the equalities of the member's later values.
    let equals: (Value, Value) -> Bool

    init(_ value: Value, equals: @escaping (Value, Value) -> Bool) {
      (self.value, self.equals) = (value, equals)
    }

    func holds(_ other: Value) -> Bool { equals(other, value) }
  }

  /// The last encoding's members, in the order it encoded them.
  private var entries: [Entry] = []
  private var next: [Entry] = []
  /// Where the member being encoded should be in ``entries``: a type's
  /// `encode(to:)` writes its members in the same order every time.
  private var position = 0
  /// How many members the last encoding encoded rather than reused.
  public private(set) var encodedMembers = 0
  /// The array this cache's value was last, with its elements' JSON, when it
  /// is an array of `Equatable` elements (`ElementwiseEncodable`).
  var elements: AnyObject?

  public init() {}

  /// How many members the last encoding kept.
  var count: Int { entries.count }

  func begin() {
    next.removeAll(keepingCapacity: true)
    next.reserveCapacity(entries.count)
    position = 0
    encodedMembers = 0
  }

  /// Keeps this encoding's members, forgetting those it did not encode (a
  /// nil optional is left out).
  func commit() {
    swap(&entries, &next)
  }

  /// The JSON of member `key` holding `value`: the kept one if `value`
  /// equals what it was encoded from, else what `encode` gives, which is
  /// handed the cache to encode the member's own value with.
  func member<T>(
    _ value: T, forKey key: String, encode: (_ children: JSONMemberCache) throws -> JSONValue
  ) rethrows -> JSONValue {
    var children: JSONMemberCache?
    // The new value's equality: nil until known; .some(nil) for a type
    // that is not Equatable.
    var equality: AnyObject??
    if let index = index(of: key) {
      let entry = entries[index]
      position = index + 1
      if entry.type == ObjectIdentifier(T.self) {
        children = entry.children
        equality = .some(nil)
        if let kept = entry.equality {
          // Safe: `kept` was made as an `Equality<T>` for this very type
          // (``equality(of:)``), which `type` records; skipping the checked
          // cast skips a runtime metadata lookup per member.
          let typed = unsafeDowncast(kept, to: Equality<T>.self)
          if typed.holds(value) {
            next.append(entry)
            return entry.json
          }
          equality = Equality(value, equals: typed.equals)
        }
      }
    }
    let cache = children ?? JSONMemberCache()
    cache.begin()
    let json = try encode(cache)
    cache.commit()
    next.append(
      Entry(
        key: key, type: ObjectIdentifier(T.self), equality: equality ?? Self.equality(of: value), json: json,
        children: cache))
    encodedMembers += 1
    return json
  }

  /// Where `key` is in ``entries``: at ``position`` when the members come in
  /// the same order as last time, else wherever it is.
  private func index(of key: String) -> Int? {
    if position < entries.count && entries[position].key == key { return position }
    return entries.firstIndex { $0.key == key }
  }

  /// An ``Equality`` for values of `T`, when `T` is Equatable: the one
  /// runtime conformance lookup, made only when a member of a type it has
  /// not seen at that place is encoded.
  private static func equality<T>(of value: T) -> AnyObject? {
    guard let equatable = value as? any Equatable else { return nil }
    return equality(opening: equatable, as: T.self)
  }

  private static func equality<E: Equatable, T>(opening value: E, as type: T.Type) -> AnyObject? {
    // The value opens as its dynamic type: an instance of a subclass of T,
    // or a value in an existential T, is not compared (its equality would
    // not be an `Equality<T>`).
    guard E.self == T.self else { return nil }
    return Equality<E>(value, equals: ==)
  }
}
