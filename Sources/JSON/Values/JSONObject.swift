import Glibc

/// The members of a JSON object, kept sorted by the UTF-8 bytes of their
/// keys: the order canonical JSON writes them in (docs/PROTOCOL.md).
///
/// The daemon builds, writes and compares objects for every action: the
/// messages it reads and sends, the state document, the patches and the
/// journal's records. In a `Dictionary`, every member would cost a hash of
/// its key when it is added, looked up or compared, and writing an object
/// would mean sorting its keys and looking each one up again. Sorted, an object
/// is written in one pass, two objects are compared by walking them side by
/// side, and a key is found by binary search, which for the few members
/// objects have here is cheaper than hashing it.
///
/// Keys are compared as UTF-8 bytes, as JSON compares member names (RFC 8259
/// §8.3), not by Swift's `String` equality: a precomposed `é` and `e` +
/// U+0301 are two keys. Adding a member keeps the order by moving the ones
/// after it, so building a large object member by member costs the square
/// of its size; builders of objects from many members collect them and use
/// ``sorting(_:)`` instead.
public struct JSONObject: Sendable, Hashable {
  public typealias Element = (key: String, value: JSONValue)

  /// The members, sorted by key with no key twice.
  @usableFromInline var members: [Element]

  /// An empty object.
  @inlinable public init() { members = [] }

  /// The members of `dictionary`.
  public init(_ dictionary: [String: JSONValue]) {
    self.init(dictionary.map { ($0.key, $0.value) })
  }

  @usableFromInline init(sortedMembers: [Element]) { members = sortedMembers }

  /// An object of `members`, given in any order; a key given twice keeps
  /// the last value given for it, as assigning them one by one would.
  ///
  /// Sorts `members` in place when the caller gives up its reference to
  /// them, as builders of objects do.
  public init(_ members: consuming [Element]) {
    var members = members
    Self.sortKeepingLast(&members)
    self.members = members
  }

  /// An object of `members` given in any order, and where a key is given
  /// twice, the position in `members` of its first repetition (the object
  /// keeps the last value given for it).
  public static func sorting(_ members: [Element]) -> (object: JSONObject, duplicate: Int?) {
    let inOrder = members.withUnsafeBufferPointer { buffer in
      buffer.count < 2 || (1..<buffer.count).allSatisfy { order(buffer[$0 - 1].key, buffer[$0].key) < 0 }
    }
    if inOrder { return (JSONObject(sortedMembers: members), nil) }
    let object = JSONObject(members)
    return (object, object.count == members.count ? nil : firstRepetition(in: members))
  }

  /// Sorts `members` by key, keeping of the members given with one key only
  /// the last.
  private static func sortKeepingLast(_ members: inout [Element]) {
    guard members.count > 1 else { return }
    if members.count <= 32 {
      // By insertion, which for the few members of most objects, often
      // given in order already, is the cheapest sort; stable, so that a
      // key's repetitions stay in the order given. Comparing through a
      // buffer pointer reads the keys in place; indexing the array copied
      // each member, value and all.
      let repeated = members.withUnsafeMutableBufferPointer { buffer in
        var repeated = false
        for index in 1..<buffer.count {
          var position = index
          while position > 0 {
            let comparison = order(buffer[position - 1].key, buffer[position].key)
            if comparison < 0 { break }
            if comparison == 0 {
              repeated = true
              break
            }
            buffer.swapAt(position - 1, position)
            position -= 1
          }
        }
        return repeated
      }
      if !repeated { return }
    } else {
      // Positions break ties, so that the sort is stable.
      let sortedPositions = members.indices.sorted { left, right in
        let comparison = order(members[left].key, members[right].key)
        return comparison != 0 ? comparison < 0 : left < right
      }
      members = sortedPositions.map { members[$0] }
    }
    // Of a run of equal keys, the last is the one given last.
    var kept = 0
    for index in members.indices {
      if index + 1 < members.count && order(members[index].key, members[index + 1].key) == 0 { continue }
      if kept != index { members.swapAt(kept, index) }
      kept += 1
    }
    if kept < members.count { members.removeSubrange(kept...) }
  }

  /// The position of the first member whose key an earlier member has.
  private static func firstRepetition(in members: [Element]) -> Int? {
    var seen = Set<[UInt8]>()
    return members.firstIndex { !seen.insert(Array($0.key.utf8)).inserted }
  }

  /// The number of members.
  @inlinable public var count: Int { members.count }
  @inlinable public var isEmpty: Bool { members.isEmpty }

  /// The keys, in order.
  @inlinable public var keys: LazyMapCollection<[Element], String> { members.lazy.map(\.key) }
  /// The values, in the order of their keys.
  @inlinable public var values: LazyMapCollection<[Element], JSONValue> { members.lazy.map(\.value) }

  /// The value of member `key`, or nil when there is none; setting nil
  /// removes the member.
  public subscript(key: String) -> JSONValue? {
    get {
      let (position, found) = search(key)
      return found ? members[position].value : nil
    }
    set {
      let (position, found) = search(key)
      switch (found, newValue) {
      case (true, let value?): members[position].value = value
      case (true, nil): members.remove(at: position)
      case (false, let value?): members.insert((key, value), at: position)
      case (false, nil): break
      }
    }
  }

  /// Sets member `key` to `value`.
  ///
  /// - Returns: the value it replaced, if any.
  @discardableResult
  public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
    let (position, found) = search(key)
    guard found else {
      members.insert((key, value), at: position)
      return nil
    }
    var value = value
    swap(&value, &members[position].value)
    return value
  }

  /// Runs `body` on the value of member `key` where it is, so that a value
  /// held nowhere else is changed without a copy.
  ///
  /// - Returns: what `body` returns, wrapped; nil when there is no member
  ///   `key` (`body` is then not run).
  public mutating func modifyValue<Result, Failure: Error>(
    forKey key: String, _ body: (inout JSONValue) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    let (position, found) = search(key)
    guard found else { return nil }
    return try body(&members[position].value)
  }

  /// Removes member `key`.
  ///
  /// - Returns: its value, if there was one.
  @discardableResult
  public mutating func removeValue(forKey key: String) -> JSONValue? {
    let (position, found) = search(key)
    return found ? members.remove(at: position).value : nil
  }

  /// The object with each member's value transformed, keys unchanged.
  public func mapValues(_ transform: (JSONValue) throws -> JSONValue) rethrows -> JSONObject {
    JSONObject(sortedMembers: try members.map { ($0.key, try transform($0.value)) })
  }

  /// Where member `key` is, or where it would go.
  private func search(_ key: String) -> (position: Int, found: Bool) {
    var low = 0
    var high = members.count
    while low < high {
      let middle = (low + high) / 2
      let comparison = Self.order(members[middle].key, key)
      if comparison == 0 { return (middle, true) }
      if comparison < 0 { low = middle + 1 } else { high = middle }
    }
    return (low, false)
  }

  /// Negative, zero or positive as `left` sorts before, with or after
  /// `right` by their UTF-8 bytes.
  public static func order(_ left: String, _ right: String) -> Int {
    let order = left.utf8.withContiguousStorageIfAvailable { left in
      right.utf8.withContiguousStorageIfAvailable { right in
        let common = Swift.min(left.count, right.count)
        // invariant: common > 0: neither buffer is empty, so both have a base address
        let order = common == 0 ? 0 : Int(memcmp(left.baseAddress!, right.baseAddress!, common))
        return order != 0 ? order : left.count - right.count
      }
    }
    if let order, let order { return order }
    // Only a string bridged from elsewhere has no contiguous UTF-8.
    if left.utf8.elementsEqual(right.utf8) { return 0 }
    return left.utf8.lexicographicallyPrecedes(right.utf8) ? -1 : 1
  }

  public static func == (left: JSONObject, right: JSONObject) -> Bool {
    guard left.members.count == right.members.count else { return false }
    // An unchanged copy shares its members' storage.
    let shared = left.members.withUnsafeBufferPointer { left in
      right.members.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
    }
    if shared { return true }
    for (left, right) in zip(left.members, right.members) {
      guard order(left.key, right.key) == 0, left.value == right.value else { return false }
    }
    return true
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(members.count)
    for member in members {
      hasher.combine(member.key)
      hasher.combine(member.value)
    }
  }
}

extension JSONObject: RandomAccessCollection {
  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { members.count }
  @inlinable public subscript(position: Int) -> Element { members[position] }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  /// An object of the members written; a key written twice is a programming
  /// error, as in a `Dictionary` literal.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    let (object, duplicate) = Self.sorting(elements.map { ($0.0, $0.1) })
    // invariant: a literal written in code; objects read from input are built by the parser, which refuses a repeated
    // key
    precondition(
      duplicate == nil, "a JSON object literal names the key '\(duplicate.map { elements[$0].0 } ?? "")' twice")
    self = object
  }
}

extension JSONObject: Codable {
  public init(from decoder: any Decoder) throws {
    self.init(try [String: JSONValue](from: decoder))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: MemberKey.self)
    for (key, value) in members { try container.encode(value, forKey: MemberKey(stringValue: key)) }
  }

  private struct MemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}

extension JSONObject: CustomStringConvertible {
  /// The object's canonical JSON text (``CanonicalJSON/text(_:)``).
  public var description: String { CanonicalJSON.text(.object(self)) }
}
