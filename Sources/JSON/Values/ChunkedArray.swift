import Synchronization

/// An array kept as a list of fixed-size chunks, each its own copy-on-write
/// buffer, the chunks themselves kept in groups of ``chunksPerGroup``, so
/// that a copy of a large array shares its chunks and groups until they are
/// written to.
///
/// The store keeps the state from before each batch of actions, so a flat
/// array of 100,000 rows would be copied whole when one row changes, and then
/// compared whole with its old self. Here changing one element copies the
/// list of groups (one per 4,096 elements), the list of chunks of the group
/// that holds it, and the one chunk that holds it; comparing two arrays that
/// share groups or chunks skips each shared one in one step
/// (``sharesGroup(ofChunk:with:)``, ``sharesChunk(_:with:)``); and encoders
/// that remember the chunks they saw (the daemon's state document) reuse what
/// they wrote for every group and chunk that is still the same. Each of these
/// costs about n / 4,096 + 64 steps for an array of n elements, where one
/// flat list of chunks would cost n / 64.
///
/// Every chunk but the last holds exactly ``chunkSize`` elements and the last
/// holds at least one, and every group but the last holds exactly
/// ``chunksPerGroup`` chunks, so equal arrays are chunked alike: element `i`
/// is in chunk `i / chunkSize`, and chunk `c` in group `c / chunksPerGroup`.
/// Appending and removing at the end cost one chunk (and, on the first write
/// to a copy, a copy of the lists above it); inserting or removing elsewhere
/// rebuilds the chunks after that point, as moving the tail of a flat array
/// would, and gives them new stamps.
public struct ChunkedArray<Element> {
  /// The number of elements in every chunk but the last.
  @inlinable public static var chunkSize: Int { 1 << shift }
  /// The number of chunks in every group but the last.
  @inlinable public static var chunksPerGroup: Int { 1 << groupShift }
  /// Element `i` is element `i & mask` of chunk `i >> shift`.
  @inlinable static var shift: Int { 6 }
  @inlinable static var mask: Int { chunkSize - 1 }
  /// Chunk `c` is chunk `c & groupMask` of group `c >> groupShift`.
  @inlinable static var groupShift: Int { 6 }
  @inlinable static var groupMask: Int { chunksPerGroup - 1 }
  /// Element `i` is in group `i >> elementGroupShift`.
  @inlinable static var elementGroupShift: Int { shift + groupShift }
  @inlinable static var elementGroupMask: Int { 1 << elementGroupShift - 1 }

  /// Up to ``chunksPerGroup`` chunks, with a stamp for each and one for the
  /// group. A stamp is new whenever its chunk (or, for the group's, any of
  /// its chunks) is made or changed, and is copied with it: two arrays whose
  /// chunks (or groups) at one position have the same stamp hold the same
  /// elements there. Checking a stamp is a comparison of two integers, also
  /// for code that is generic over `Element`, for which every use of a
  /// `[Element]` costs a lookup of its type's metadata.
  @usableFromInline struct Group {
    @usableFromInline var chunks: [[Element]]
    @usableFromInline var stamps: [UInt64]
    @usableFromInline var stamp: UInt64

    @usableFromInline init(chunk: [Element], stamp: UInt64) {
      (chunks, stamps, self.stamp) = ([chunk], [stamp], stamp)
    }
  }

  // The members that collection code everywhere uses are `@inlinable`, so
  // that they are specialized for the element type in the modules that use
  // them: unspecialized, every access to a `[Element]` looks up its type's
  // metadata, even `endIndex`, which is on every loop's path.
  @usableFromInline var groups: [Group]

  /// An empty array.
  @inlinable public init() { groups = [] }

  /// The elements of `elements`, in order.
  @inlinable public init(_ elements: some Sequence<Element>) {
    self.init()
    append(contentsOf: elements)
  }

  /// The number of chunks.
  @inlinable public var chunkCount: Int {
    guard let last = groups.last else { return 0 }
    return (groups.count - 1) << Self.groupShift + last.chunks.count
  }

  /// Chunk `index`.
  @inlinable public func chunk(_ index: Int) -> [Element] {
    groups[index >> Self.groupShift].chunks[index & Self.groupMask]
  }

  /// Whether chunk `index` of this array and of `other` are known to hold
  /// the same elements without comparing them: one is an unchanged copy of
  /// the other.
  @inlinable public func sharesChunk(_ index: Int, with other: Self) -> Bool {
    groups[index >> Self.groupShift].stamps[index & Self.groupMask]
      == other.groups[index >> Self.groupShift].stamps[index & Self.groupMask]
  }

  /// Whether the group that holds chunk `index` is known to hold the same
  /// chunks in this array and in `other`, both of which have it: one is an
  /// unchanged copy of the other there.
  @inlinable public func sharesGroup(ofChunk index: Int, with other: Self) -> Bool {
    groups[index >> Self.groupShift].stamp == other.groups[index >> Self.groupShift].stamp
  }

  /// Replaces chunk `index` with `elements`, or appends them as a new chunk
  /// when `index` is ``chunkCount``. The chunks must stay as the type
  /// requires: `elements` is full unless it is the last chunk, and never
  /// empty. For encoders that rebuild what changed of an array they keep.
  public mutating func replaceChunk(_ index: Int, with elements: [Element]) {
    let chunkCount = self.chunkCount
    let lastIsFull = groups.last.map { $0.chunks[$0.chunks.count - 1].count == Self.chunkSize } ?? true
    let fits =
      !elements.isEmpty && index <= chunkCount
      && (elements.count == Self.chunkSize || index >= chunkCount - 1)
      && (index < chunkCount || lastIsFull)
    // invariant: the encoders that rebuild an array they keep pass chunks they cut; input never chooses them
    precondition(fits, "ChunkedArray: chunk \(index) of \(chunkCount) cannot hold \(elements.count) elements")
    let stamp = ChunkStamp.next()
    if index == chunkCount {
      appendChunk(elements, stamp: stamp)
    } else {
      let (group, local) = (index >> Self.groupShift, index & Self.groupMask)
      groups[group].chunks[local] = elements
      groups[group].stamps[local] = stamp
      groups[group].stamp = stamp
    }
  }

  /// Keeps the first `count` chunks.
  public mutating func keepChunks(_ count: Int) {
    // invariant: the encoders that rebuild an array they keep pass chunk counts they computed; input never chooses
    // them
    precondition(0 <= count && count <= chunkCount, "ChunkedArray: cannot keep \(count) of \(chunkCount) chunks")
    guard count < chunkCount else { return }
    let (group, local) = (count >> Self.groupShift, count & Self.groupMask)
    if local == 0 {
      groups.removeSubrange(group...)
    } else {
      groups.removeSubrange((group + 1)...)
      groups[group].chunks.removeSubrange(local...)
      groups[group].stamps.removeSubrange(local...)
      groups[group].stamp = ChunkStamp.next()
    }
  }

  /// Appends `chunk` after the last chunk, which is full.
  @usableFromInline mutating func appendChunk(_ chunk: [Element], stamp: UInt64) {
    if let last = groups.indices.last, groups[last].chunks.count < Self.chunksPerGroup {
      groups[last].chunks.append(chunk)
      groups[last].stamps.append(stamp)
      groups[last].stamp = stamp
    } else {
      groups.append(Group(chunk: chunk, stamp: stamp))
    }
  }
}

/// Stamps for chunks: unique across all arrays, so two chunks never share
/// one by accident.
@usableFromInline enum ChunkStamp {
  @usableFromInline static func next() -> UInt64 { chunkStamps.add(1, ordering: .relaxed).newValue }
}

private let chunkStamps = Atomic<UInt64>(0)

extension ChunkedArray: RandomAccessCollection, MutableCollection {
  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int {
    guard let lastGroup = groups.last else { return 0 }
    let lastChunk = lastGroup.chunks.count - 1
    return (groups.count - 1) << Self.elementGroupShift + lastChunk << Self.shift + lastGroup.chunks[lastChunk].count
  }
  @inlinable public var count: Int { endIndex }
  @inlinable public var isEmpty: Bool { groups.isEmpty }

  @inlinable public subscript(position: Int) -> Element {
    get {
      groups[position >> Self.elementGroupShift].chunks[(position >> Self.shift) & Self.groupMask][position & Self.mask]
    }
    set {
      let (group, local) = (position >> Self.elementGroupShift, (position >> Self.shift) & Self.groupMask)
      groups[group].chunks[local][position & Self.mask] = newValue
      stamp(group: group, local: local)
    }
    _modify {
      let (group, local) = (position >> Self.elementGroupShift, (position >> Self.shift) & Self.groupMask)
      defer { stamp(group: group, local: local) }
      yield &groups[group].chunks[local][position & Self.mask]
    }
  }

  /// Gives chunk `local` of group `group`, which changed, and its group a
  /// new stamp.
  @inlinable mutating func stamp(group: Int, local: Int) {
    let stamp = ChunkStamp.next()
    groups[group].stamps[local] = stamp
    groups[group].stamp = stamp
  }
}

extension ChunkedArray: RangeReplaceableCollection {
  @inlinable public mutating func append(_ element: Element) {
    if let group = groups.indices.last {
      let local = groups[group].chunks.count - 1
      if groups[group].chunks[local].count < Self.chunkSize {
        groups[group].chunks[local].append(element)
        stamp(group: group, local: local)
        return
      }
    }
    appendChunk([element], stamp: ChunkStamp.next())
  }

  /// Appends `elements`, stamping each chunk it fills, and its group, once.
  @inlinable public mutating func append(contentsOf elements: some Sequence<Element>) {
    var firstChanged: Int? = nil
    for element in elements {
      if let group = groups.indices.last,
        case let local = groups[group].chunks.count - 1, groups[group].chunks[local].count < Self.chunkSize
      {
        groups[group].chunks[local].append(element)
        firstChanged = firstChanged ?? (group << Self.groupShift + local)
      } else {
        firstChanged = firstChanged ?? chunkCount
        appendChunk([element], stamp: 0)
      }
    }
    guard let firstChanged else { return }
    for chunk in firstChanged..<chunkCount {
      stamp(group: chunk >> Self.groupShift, local: chunk & Self.groupMask)
    }
  }

  public mutating func removeLast() -> Element {
    // invariant: like Array's removeLast(), called only on an array the caller knows is not empty
    precondition(!groups.isEmpty, "ChunkedArray: removeLast() on an empty array")
    let group = groups.count - 1
    let local = groups[group].chunks.count - 1
    let element = groups[group].chunks[local].removeLast()
    if !groups[group].chunks[local].isEmpty {
      stamp(group: group, local: local)
    } else if local > 0 {
      groups[group].chunks.removeLast()
      groups[group].stamps.removeLast()
      groups[group].stamp = ChunkStamp.next()
    } else {
      groups.removeLast()
    }
    return element
  }

  public mutating func replaceSubrange<C: Collection<Element>>(_ range: Range<Int>, with newElements: C) {
    // invariant: callers pass ranges they checked, like Array's own bounds check (JSONPatch checks a pointer's index
    // against the count before it inserts or removes)
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "ChunkedArray: range \(range) out of bounds")
    let tail = Array(self[range.upperBound...])
    truncate(to: range.lowerBound)
    append(contentsOf: newElements)
    append(contentsOf: tail)
  }

  public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    groups.removeAll()
  }

  /// Keeps the first `newCount` elements; the chunks before them are untouched.
  private mutating func truncate(to newCount: Int) {
    let rest = newCount & Self.mask
    keepChunks(newCount >> Self.shift + (rest == 0 ? 0 : 1))
    guard rest != 0 else { return }
    let (group, local) = (groups.count - 1, groups[groups.count - 1].chunks.count - 1)
    guard groups[group].chunks[local].count > rest else { return }
    groups[group].chunks[local].removeSubrange(rest...)
    stamp(group: group, local: local)
  }
}

extension ChunkedArray: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension ChunkedArray: Equatable where Element: Equatable {
  /// Equal when the elements are; groups and chunks that share a stamp are
  /// not compared.
  @inlinable public static func == (lhs: Self, rhs: Self) -> Bool {
    // Arrays of one count are chunked alike.
    guard lhs.count == rhs.count else { return false }
    for group in lhs.groups.indices where lhs.groups[group].stamp != rhs.groups[group].stamp {
      let (left, right) = (lhs.groups[group], rhs.groups[group])
      for chunk in left.stamps.indices where left.stamps[chunk] != right.stamps[chunk] {
        guard left.chunks[chunk] == right.chunks[chunk] else { return false }
      }
    }
    return true
  }
}

extension ChunkedArray where Element: Equatable {
  /// The number of leading elements equal in both arrays, passing over the
  /// groups and chunks they share without comparing their elements.
  @inlinable public func commonPrefixCount(with other: Self) -> Int {
    let shorter = Swift.min(count, other.count)
    var prefix = 0
    while prefix < shorter {
      if prefix & Self.elementGroupMask == 0, prefix + Self.elementGroupMask < shorter,
        groups[prefix >> Self.elementGroupShift].stamp == other.groups[prefix >> Self.elementGroupShift].stamp
      {
        prefix += Self.elementGroupMask + 1
        continue
      }
      if prefix & Self.mask == 0, prefix + Self.mask < shorter, sharesChunk(prefix >> Self.shift, with: other) {
        prefix += Self.chunkSize
        continue
      }
      guard self[prefix] == other[prefix] else { break }
      prefix += 1
    }
    return prefix
  }

  /// The number of trailing elements equal in both arrays, at most `limit`,
  /// which is at most the shorter count. When both arrays have the same
  /// count their groups and chunks line up, and the ones they share are
  /// passed over without comparing their elements.
  @inlinable public func commonSuffixCount(with other: Self, limit: Int) -> Int {
    let (count, otherCount) = (self.count, other.count)
    // invariant: the diff passes a limit within both counts, which it computed; input never chooses it
    precondition(
      0 <= limit && limit <= Swift.min(count, otherCount), "ChunkedArray: suffix limit \(limit) out of range")
    let aligned = count == otherCount
    var suffix = 0
    while suffix < limit {
      let index = count - 1 - suffix
      // At the last element of a group or chunk: pass the whole of it if shared.
      if aligned {
        if index & Self.elementGroupMask == Self.elementGroupMask || suffix == 0,
          groups[index >> Self.elementGroupShift].stamp == other.groups[index >> Self.elementGroupShift].stamp
        {
          suffix += index & Self.elementGroupMask + 1
          continue
        }
        if index & Self.mask == Self.mask || suffix == 0, sharesChunk(index >> Self.shift, with: other) {
          suffix += index & Self.mask + 1
          continue
        }
      }
      guard self[index] == other[otherCount - 1 - suffix] else { break }
      suffix += 1
    }
    return Swift.min(suffix, limit)
  }
}

extension ChunkedArray: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for element in self { hasher.combine(element) }
  }
}

extension ChunkedArray: Sendable where Element: Sendable {}
extension ChunkedArray.Group: Sendable where Element: Sendable {}

extension ChunkedArray: Encodable where Element: Encodable {
  /// Encodes as a plain array.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for group in groups {
      for chunk in group.chunks { try container.encode(contentsOf: chunk) }
    }
  }
}

extension ChunkedArray: Decodable where Element: Decodable {
  /// Decodes from a plain array.
  public init(from decoder: any Decoder) throws {
    self.init(try [Element](from: decoder))
  }
}

extension ChunkedArray: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String { Array(self).description }
  public var debugDescription: String { Array(self).debugDescription }
}

extension ChunkedArray: CustomReflectable {
  /// Reflects as the plain list of elements, hiding the chunks.
  public var customMirror: Mirror { Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection) }
}
