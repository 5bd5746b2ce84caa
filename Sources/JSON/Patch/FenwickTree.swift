/// Prefix sums over a fixed number of counters, each update and query in
/// O(log n).
struct FenwickTree {
  private var tree: [Int]

  init(count: Int) {
    tree = [Int](repeating: 0, count: count + 1)
  }

  /// Adds `delta` to the counter at `index`.
  mutating func add(_ delta: Int, at index: Int) {
    var position = index + 1
    while position < tree.count {
      tree[position] += delta
      position += position & -position
    }
  }

  /// The sum of the counters before `index`.
  func sum(before index: Int) -> Int {
    var position = index
    var total = 0
    while position > 0 {
      total += tree[position]
      position -= position & -position
    }
    return total
  }
}
