import ComposableCore

/// The JSON of the top-level members of the last value encoded with it,
/// each kept with the value it was encoded from
/// (``JSONValueEncoder/encode(_:reusing:)``).
///
/// The daemon publishes its whole state as one JSON document after every
/// batch, but an action changes one or two of the state's parts: this cache
/// lets the unchanged parts be compared instead of encoded again. Equality
/// is what decides, through the member type's own `Equatable`, found once
/// when the member is encoded and kept beside it; storage an action did not
/// touch compares by identity at once.
///
/// Not thread-safe: one encoding at a time, on one thread (the daemon's store
/// loop).
public final class JSONMemberCache {
  private struct Entry {
    /// An ``Equality`` of the member's type, or nil when it is not Equatable.
    let equality: AnyObject?
    let json: JSONValue
  }

  /// Tells whether a value equals the one a member was encoded from.
  private final class Equality<Value> {
    let holds: (Value) -> Bool
    init(holds: @escaping (Value) -> Bool) { self.holds = holds }
  }

  private var entries: [String: Entry] = [:]
  private var next: [String: Entry] = [:]
  /// How many members the last encoding encoded rather than reused.
  public private(set) var encodedMembers = 0

  public init() {}

  /// How many members the last encoding kept.
  var count: Int { entries.count }

  func begin() {
    next.removeAll(keepingCapacity: true)
    next.reserveCapacity(entries.count)
    encodedMembers = 0
  }

  /// Keeps this encoding's members, forgetting those it did not encode (a
  /// nil optional is left out).
  func commit() {
    swap(&entries, &next)
  }

  /// The JSON of member `key` holding `value`: the kept one if `value`
  /// equals what it was encoded from, else what `encode` gives.
  func member<T>(_ value: T, forKey key: String, encode: () throws -> JSONValue) rethrows -> JSONValue {
    if let entry = entries[key], let equality = entry.equality as? Equality<T>, equality.holds(value) {
      next[key] = entry
      return entry.json
    }
    let json = try encode()
    next[key] = Entry(equality: Self.equality(of: value), json: json)
    encodedMembers += 1
    return json
  }

  /// An ``Equality`` for values of `T`, when `T` is Equatable: the one
  /// runtime conformance lookup, made only when the member is encoded.
  private static func equality<T>(of value: T) -> AnyObject? {
    guard let equatable = value as? any Equatable else { return nil }
    return equality(opening: equatable)
  }

  private static func equality<E: Equatable>(opening value: E) -> AnyObject {
    // E is the member's type T: `as? Equality<T>` finds this again.
    Equality<E> { $0 == value }
  }
}
