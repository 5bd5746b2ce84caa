/// Observations counted into buckets by upper bound, with their sum and
/// count: what Prometheus' `histogram_quantile` reads percentiles from. A
/// value owned by one thread; a reader takes a copy.
public struct Histogram: Sendable, Equatable {
  /// The buckets' upper bounds, ascending; `+Inf` is implied after the last.
  public let bounds: [Double]
  /// How many observations fell in each bucket (not cumulative): at most
  /// its bound, and above the one before.
  public private(set) var counts: [UInt64]
  /// The observations above the last bound.
  public private(set) var overflow: UInt64 = 0
  /// The sum of the observations.
  public private(set) var sum: Double = 0

  /// An empty histogram with these bounds, which must ascend.
  public init(bounds: [Double]) {
    // invariant: bounds are the program's constants, never input
    assert(zip(bounds, bounds.dropFirst()).allSatisfy { $0 < $1 }, "bounds must ascend")
    self.bounds = bounds
    counts = Array(repeating: 0, count: bounds.count)
  }

  /// How many observations there were.
  public var count: UInt64 { counts.reduce(overflow, +) }

  /// Counts `value` in the first bucket whose bound is at least it.
  public mutating func observe(_ value: Double) {
    sum += value
    var low = 0
    var high = bounds.count
    while low < high {
      let middle = (low + high) / 2
      if bounds[middle] < value { low = middle + 1 } else { high = middle }
    }
    if low == bounds.count { overflow += 1 } else { counts[low] += 1 }
  }

  /// Adds `other`'s observations, counted with the same bounds.
  public mutating func add(_ other: Histogram) {
    // invariant: histograms of one metric are made by one of the constants below
    assert(other.bounds == bounds, "histograms with different bounds")
    for index in counts.indices where index < other.counts.count { counts[index] += other.counts[index] }
    overflow += other.overflow
    sum += other.sum
  }

  /// Durations, from 50 µs to 10 s: a turn, an fsync, a commit.
  public static var seconds: Histogram {
    Histogram(bounds: [
      0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ])
  }

  /// Counts, in powers of two from 1 to 4,096: the actions in a batch.
  public static var sizes: Histogram {
    Histogram(bounds: (0...12).map { Double(1 << $0) })
  }
}
