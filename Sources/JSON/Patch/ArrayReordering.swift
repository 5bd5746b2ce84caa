/// The fewest RFC 6902 `move`s that reorder an array, in O(n log n).
///
/// Given, for each current position, the element's rank in the target order
/// (a permutation of `0..<n`), the elements on a longest increasing
/// subsequence stay put and every other element is moved once — the minimum
/// number of moves. The others are moved in target order, each to just after
/// its target predecessor (or to the front), so that once moved an element
/// never moves again and never has another one placed before it out of order.
///
/// Each move's indices are those RFC 6902 uses at the moment it is applied:
/// `from` in the array before the move, `to` in the array after the element
/// is taken out. They are computed with a Fenwick tree over "slots": each
/// element's current slot and, for those that move, the slot just after their
/// predecessor, laid out in one total order up front.
enum ArrayReordering {
  /// One move, in RFC 6902 index semantics.
  struct Move: Equatable {
    var from: Int
    var to: Int
  }

  /// The moves that sort `ranks` (a permutation of `0..<ranks.count`) into
  /// ascending order; empty when it is already sorted.
  static func moves(sorting ranks: [Int]) -> [Move] {
    let count = ranks.count
    guard ranks.indices.contains(where: { ranks[$0] != $0 }) else { return [] }

    // Longest increasing subsequence (patience sorting), marked by rank.
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: count)
    for position in 0..<count {
      let rank = ranks[position]
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if ranks[tails[middle]] < rank { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[position] = tails[low - 1] }
      if low == tails.count { tails.append(position) } else { tails[low] = position }
    }
    var stays = [Bool](repeating: false, count: count)
    var cursor = tails.last ?? -1
    while cursor >= 0 {
      stays[ranks[cursor]] = true
      cursor = previous[cursor]
    }

    // Slots: the moved elements that go before every staying one first, then
    // each element's current slot in current order, a staying element's slot
    // followed by those of the moved elements that come right after it.
    var currentSlot = [Int](repeating: 0, count: count)
    var targetSlot = [Int](repeating: 0, count: count)
    var slots = 0
    func placeMovedElements(after rank: Int) {
      var next = rank + 1
      while next < count && !stays[next] {
        targetSlot[next] = slots
        slots += 1
        next += 1
      }
    }
    placeMovedElements(after: -1)
    for rank in ranks {
      currentSlot[rank] = slots
      slots += 1
      if stays[rank] { placeMovedElements(after: rank) }
    }

    var occupied = FenwickTree(count: slots)
    for rank in 0..<count { occupied.add(1, at: currentSlot[rank]) }
    var moves: [Move] = []
    for rank in 0..<count where !stays[rank] {
      let from = occupied.sum(before: currentSlot[rank])
      occupied.add(-1, at: currentSlot[rank])
      let to = occupied.sum(before: targetSlot[rank])
      occupied.add(1, at: targetSlot[rank])
      if from != to { moves.append(Move(from: from, to: to)) }
    }
    return moves
  }
}
