import Synchronization

/// An array kept as a list of fixed-size chunks, each its own copy-on-write
/// buffer, so that a copy of a large array shares its chunks until they are
/// written to.
///
/// The store keeps the state from before each batch of actions, so a flat
/// array of 100,000 rows would be copied whole when one row changes, and then
/// compared whole with its old self. Here changing one element copies the
/// list of chunk references and the one chunk that holds it; comparing two
/// arrays that share chunks skips each shared chunk in one step
/// (``sharesChunk(_:with:)``); and encoders that remember the chunks they saw
/// (the daemon's state document) reuse what they wrote for every chunk that
/// is still the same.
///
/// Every chunk but the last holds exactly ``chunkSize`` elements and the last
/// holds at least one, so equal arrays are chunked alike: element `i` is in
/// chunk `i / chunkSize`. Appending and removing at the end cost one chunk
/// (and, on the first write to a copy, a copy of the list of chunk
/// references: one per 64 elements); inserting or removing elsewhere rebuilds
/// the chunks after that point, as moving the tail of a flat array would, and
/// gives them new stamps.
public struct ChunkedArray<Element> {
  /// The number of elements in every chunk but the last.
  @inlinable public static var chunkSize: Int { 1 << shift }
  /// Element `i` is element `i & mask` of chunk `i >> shift`.
  @inlinable static var shift: Int { 6 }
  @inlinable static var mask: Int { chunkSize - 1 }

  /// The chunks, in order: every one but the last holds ``chunkSize`` elements.
  @inlinable public var chunks: [[Element]] { storage }
  // The members that collection code everywhere uses are `@inlinable`, so
  // that they are specialized for the element type in the modules that use
  // them: unspecialized, every access to a `[Element]` looks up its type's
  // metadata, even `endIndex`, which is on every loop's path.
  @usableFromInline var storage: [[Element]]
  /// A stamp for each chunk, new whenever the chunk is made or changed, and
  /// copied with it: two arrays whose chunks at one position have the same
  /// stamp hold the same elements there. Checking a stamp is a comparison of
  /// two integers, also for code that is generic over `Element`, for which
  /// every use of a `[Element]` costs a lookup of its type's metadata.
  @usableFromInline var stamps: [UInt64]

  /// An empty array.
  @inlinable public init() { (storage, stamps) = ([], []) }

  /// The elements of `elements`, in order.
  @inlinable public init(_ elements: some Sequence<Element>) {
    self.init()
    append(contentsOf: elements)
  }

  /// The number of chunks.
  @inlinable public var chunkCount: Int { stamps.count }

  /// Whether chunk `index` of this array and of `other` are known to hold
  /// the same elements without comparing them: one is an unchanged copy of
  /// the other.
  @inlinable public func sharesChunk(_ index: Int, with other: Self) -> Bool {
    stamps[index] == other.stamps[index]
  }

  /// Replaces chunk `index` with `elements`, or appends them as a new chunk
  /// when `index` is ``chunkCount``. The chunks must stay as ``chunks``
  /// requires: `elements` is full unless it is the last chunk, and never
  /// empty. For encoders that rebuild what changed of an array they keep.
  public mutating func replaceChunk(_ index: Int, with elements: [Element]) {
    let fits =
      !elements.isEmpty && index <= storage.count
      && (elements.count == Self.chunkSize || index >= storage.count - 1)
      && (index < storage.count || storage.last.map { $0.count == Self.chunkSize } ?? true)
    // invariant: the encoders that rebuild an array they keep pass chunks they cut; input never chooses them
    precondition(fits, "ChunkedArray: chunk \(index) of \(storage.count) cannot hold \(elements.count) elements")
    if index == chunks.count {
      storage.append(elements)
      stamps.append(ChunkStamp.next())
    } else {
      storage[index] = elements
      stamps[index] = ChunkStamp.next()
    }
  }

  /// Keeps the first `count` chunks.
  public mutating func keepChunks(_ count: Int) {
    // invariant: the encoders that rebuild an array they keep pass chunk counts they computed; input never chooses
    // them
    precondition(0 <= count && count <= storage.count, "ChunkedArray: cannot keep \(count) of \(storage.count) chunks")
    guard count < storage.count else { return }
    storage.removeSubrange(count...)
    stamps.removeSubrange(count...)
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
    guard let last = storage.last else { return 0 }
    return (storage.count - 1) << Self.shift + last.count
  }
  @inlinable public var count: Int { endIndex }
  @inlinable public var isEmpty: Bool { storage.isEmpty }

  @inlinable public subscript(position: Int) -> Element {
    get { storage[position >> Self.shift][position & Self.mask] }
    set {
      let chunk = position >> Self.shift
      storage[chunk][position & Self.mask] = newValue
      stamps[chunk] = ChunkStamp.next()
    }
    _modify {
      let chunk = position >> Self.shift
      defer { stamps[chunk] = ChunkStamp.next() }
      yield &storage[chunk][position & Self.mask]
    }
  }
}

extension ChunkedArray: RangeReplaceableCollection {
  @inlinable public mutating func append(_ element: Element) {
    if let last = storage.indices.last, storage[last].count < Self.chunkSize {
      storage[last].append(element)
      stamps[last] = ChunkStamp.next()
    } else {
      storage.append([element])
      stamps.append(ChunkStamp.next())
    }
  }

  /// Appends `elements`, stamping each chunk it fills once.
  @inlinable public mutating func append(contentsOf elements: some Sequence<Element>) {
    var changed: Int? = nil
    for element in elements {
      if let last = storage.indices.last, storage[last].count < Self.chunkSize {
        storage[last].append(element)
        changed = changed ?? last
      } else {
        storage.append([element])
        stamps.append(0)
        changed = changed ?? storage.count - 1
      }
    }
    if let changed {
      for chunk in changed..<storage.count { stamps[chunk] = ChunkStamp.next() }
    }
  }

  public mutating func removeLast() -> Element {
    // invariant: like Array's removeLast(), called only on an array the caller knows is not empty
    precondition(!storage.isEmpty, "ChunkedArray: removeLast() on an empty array")
    let last = storage.count - 1
    let element = storage[last].removeLast()
    if storage[last].isEmpty {
      storage.removeLast()
      stamps.removeLast()
    } else {
      stamps[last] = ChunkStamp.next()
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
    storage.removeAll()
    stamps.removeAll()
  }

  /// Keeps the first `newCount` elements; the chunks before them are untouched.
  private mutating func truncate(to newCount: Int) {
    let fullChunks = newCount >> Self.shift
    let rest = newCount & Self.mask
    if rest == 0 {
      storage.removeSubrange(fullChunks...)
      stamps.removeSubrange(fullChunks...)
    } else {
      storage.removeSubrange((fullChunks + 1)...)
      stamps.removeSubrange((fullChunks + 1)...)
      storage[fullChunks].removeSubrange(rest...)
      stamps[fullChunks] = ChunkStamp.next()
    }
  }
}

extension ChunkedArray: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension ChunkedArray: Equatable where Element: Equatable {
  /// Equal when the elements are; chunks that share a stamp are not compared.
  @inlinable public static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs.stamps.count == rhs.stamps.count else { return false }
    if lhs.stamps == rhs.stamps { return true }
    for chunk in lhs.stamps.indices where lhs.stamps[chunk] != rhs.stamps[chunk] {
      guard lhs.storage[chunk] == rhs.storage[chunk] else { return false }
    }
    return true
  }
}

extension ChunkedArray where Element: Equatable {
  /// The number of leading elements equal in both arrays, passing over the
  /// chunks they share without comparing their elements.
  @inlinable public func commonPrefixCount(with other: Self) -> Int {
    let shorter = Swift.min(count, other.count)
    let fullChunks = shorter >> Self.shift
    var prefix = 0
    while prefix < shorter {
      let chunk = prefix >> Self.shift
      if prefix & Self.mask == 0, chunk < fullChunks, stamps[chunk] == other.stamps[chunk] {
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
  /// count their chunks line up, and the chunks they share are passed over
  /// without comparing their elements.
  @inlinable public func commonSuffixCount(with other: Self, limit: Int) -> Int {
    let (count, otherCount) = (self.count, other.count)
    // invariant: the diff passes a limit within both counts, which it computed; input never chooses it
    precondition(
      0 <= limit && limit <= Swift.min(count, otherCount), "ChunkedArray: suffix limit \(limit) out of range")
    let aligned = count == otherCount
    var suffix = 0
    while suffix < limit {
      let index = count - 1 - suffix
      // At the last element of a chunk: pass the whole chunk if shared.
      if aligned, index & Self.mask == Self.mask || suffix == 0,
        stamps[index >> Self.shift] == other.stamps[index >> Self.shift]
      {
        suffix += index & Self.mask + 1
        continue
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

extension ChunkedArray: Encodable where Element: Encodable {
  /// Encodes as a plain array.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for chunk in chunks { try container.encode(contentsOf: chunk) }
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
