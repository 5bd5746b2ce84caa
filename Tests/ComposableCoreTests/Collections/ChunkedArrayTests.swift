import ComposableCore
import FoundationEssentials
import JSON
import Testing

/// `ChunkedArray` behaves as `Array` does, keeps its chunks full, and says a
/// chunk is shared only when its elements are the same.
@Suite struct ChunkedArrayTests {
  /// Sizes on both sides of chunk boundaries, and one past a group of 4,096
  /// (a change at its last element starts a group or leaves one).
  static let sizes = [0, 1, 63, 64, 65, 127, 128, 129, 300, 4097]

  /// One change of every kind the collection offers, at a position given as
  /// a fraction of the count, done to a `ChunkedArray` and to an `Array`.
  enum Change: CaseIterable {
    case set, modify, append, appendMany, insert, insertMany, remove, removeLast, removeRange, replaceRange,
      removeWhere,
      sort, removeAll

    func apply(_ array: inout ChunkedArray<Int>, at position: Int) { run(&array, position) }
    func apply(_ array: inout [Int], at position: Int) { run(&array, position) }

    private func run<C: RangeReplaceableCollection & MutableCollection & RandomAccessCollection>(_ c: inout C, _ p: Int)
    where C.Element == Int, C.Index == Int {
      switch self {
      case .set: if p < c.count { c[p] = -1 }
      case .modify: if p < c.count { c[p] += 1_000 }
      case .append: c.append(7)
      case .appendMany: c.append(contentsOf: 500..<600)
      case .insert: c.insert(8, at: p)
      case .insertMany: c.insert(contentsOf: [9, 10, 11], at: p)
      case .remove: if p < c.count { c.remove(at: p) }
      case .removeLast: if !c.isEmpty { c.removeLast() }
      case .removeRange: c.removeSubrange(p..<min(c.count, p + 70))
      case .replaceRange: c.replaceSubrange(p..<min(c.count, p + 3), with: [1, 2, 3, 4, 5])
      case .removeWhere: c.removeAll { $0 % 3 == 0 }
      case .sort: c.sort(by: >)
      case .removeAll: c.removeAll()
      }
    }
  }

  /// Calls `body` with `0..<size` as a chunked array and as an array, and a
  /// description, for every size, change and position (before the change).
  static func forEveryChange(_ body: (Change, Int, ChunkedArray<Int>, [Int], String) -> Void) {
    for size in sizes {
      for change in Change.allCases {
        for position in Set([0, size / 2, max(0, size - 1), size]) {
          body(change, position, ChunkedArray(0..<size), Array(0..<size), "\(change) at \(position) of \(size)")
        }
      }
    }
  }

  static func check(_ array: ChunkedArray<Int>, equals model: [Int], _ context: String) {
    #expect(Array(array) == model, "\(context)")
    #expect(array.count == model.count, "\(context)")
    #expect(array.isEmpty == model.isEmpty, "\(context)")
    // Every chunk but the last full, none empty: equal arrays chunk alike.
    let chunks = array.allChunks
    #expect(chunks.dropLast().allSatisfy { $0.count == ChunkedArray<Int>.chunkSize }, "\(context)")
    for group in 0..<array.chunkCount / ChunkedArray<Int>.chunksPerGroup where array.chunkCount > 0 {
      #expect(array.chunk(group * ChunkedArray<Int>.chunksPerGroup) == chunks[group * ChunkedArray<Int>.chunksPerGroup])
    }
    #expect(chunks.allSatisfy { !$0.isEmpty }, "\(context)")
    #expect(array.chunkCount == chunks.count, "\(context)")
    let fresh = ChunkedArray(model)
    #expect(array == fresh, "\(context)")
    #expect(array.hashValue == fresh.hashValue, "\(context)")
  }

  @Test func everyChangeDoesWhatItDoesToAnArray() {
    Self.forEveryChange { change, position, array, model, context in
      var (array, model) = (array, model)
      change.apply(&model, at: position)
      change.apply(&array, at: position)
      Self.check(array, equals: model, context)
    }
  }

  /// After any change to a copy, a chunk the two still "share" holds the
  /// same elements in both: an encoder that reuses shared chunks' JSON never
  /// reuses a stale one. And a change touches only the chunks it must.
  @Test func aChunkIsSharedOnlyWhileItsElementsAreTheSame() {
    Self.forEveryChange { change, position, original, _, context in
      var changed = original
      change.apply(&changed, at: position)
      for chunk in 0..<min(original.chunkCount, changed.chunkCount) where changed.sharesChunk(chunk, with: original) {
        #expect(changed.chunk(chunk) == original.chunk(chunk), "\(context), chunk \(chunk)")
      }
    }
    var rows = ChunkedArray(0..<100_000)
    let before = rows
    rows[70_000] += 1
    let changedChunk = 70_000 / ChunkedArray<Int>.chunkSize
    #expect((0..<rows.chunkCount).filter { !rows.sharesChunk($0, with: before) } == [changedChunk])
    // Only the group that holds the changed chunk is not shared.
    let groupStarts = stride(from: 0, to: rows.chunkCount, by: ChunkedArray<Int>.chunksPerGroup)
    #expect(groupStarts.filter { !rows.sharesGroup(ofChunk: $0, with: before) } == [changedChunk & ~63])
    rows.append(1)
    #expect(
      (0..<before.chunkCount).filter { !rows.sharesChunk($0, with: before) } == [changedChunk, before.chunkCount - 1])
  }

  /// After any change to a copy, a group the two still "share" holds the
  /// same chunks in both.
  @Test func aGroupIsSharedOnlyWhileItsChunksAreTheSame() {
    Self.forEveryChange { change, position, original, _, context in
      var changed = original
      change.apply(&changed, at: position)
      let common = min(original.chunkCount, changed.chunkCount)
      for start in stride(from: 0, to: common, by: ChunkedArray<Int>.chunksPerGroup)
      where changed.sharesGroup(ofChunk: start, with: original) {
        let end = min(start + ChunkedArray<Int>.chunksPerGroup, changed.chunkCount, original.chunkCount)
        #expect(
          changed.allChunks[start..<end] == original.allChunks[start..<end], "\(context), group at chunk \(start)")
        #expect(
          min(start + ChunkedArray<Int>.chunksPerGroup, changed.chunkCount)
            == min(start + ChunkedArray<Int>.chunksPerGroup, original.chunkCount), "\(context)")
      }
    }
  }

  @Test func commonPrefixAndSuffixAgreeWithAnElementByElementCount() {
    Self.forEveryChange { change, position, original, _, context in
      var changed = original
      change.apply(&changed, at: position)
      let (a, b) = (Array(original), Array(changed))
      let prefix = zip(a, b).prefix { $0 == $1 }.count
      #expect(original.commonPrefixCount(with: changed) == prefix, "\(context)")
      let limit = min(a.count, b.count) - prefix
      let suffix = zip(a.reversed(), b.reversed()).prefix(limit).prefix { $0 == $1 }.count
      #expect(original.commonSuffixCount(with: changed, limit: limit) == suffix, "\(context)")
    }
  }

  @Test func encodesAndDecodesAsAPlainArray() throws {
    let array = ChunkedArray(0..<130)
    let data = try JSONEncoder().encode(array)
    #expect(data == (try JSONEncoder().encode(Array(0..<130))))
    #expect(try JSONDecoder().decode(ChunkedArray<Int>.self, from: data) == array)
    #expect(ChunkedArray([1, 2]).description == "[1, 2]")
  }
}

extension ChunkedArray {
  /// Every chunk, in order.
  fileprivate var allChunks: [[Element]] { (0..<chunkCount).map(chunk) }
}
