import Wire

/// Requests and connections refused, by the error code they were answered
/// with (docs/PROTOCOL.md, "Errors"), for the metrics. Each owner that
/// refuses keeps its own; the metrics add them up.
struct RefusalCounts {
  private var counts = [UInt64](repeating: 0, count: WireErrorCode.allCases.count)

  mutating func count(_ code: WireErrorCode) {
    counts[Self.index(of: code)] += 1
  }

  /// The refusals with `code`.
  subscript(code: WireErrorCode) -> UInt64 {
    counts[Self.index(of: code)]
  }

  static func + (left: RefusalCounts, right: RefusalCounts) -> RefusalCounts {
    var sum = left
    for index in sum.counts.indices { sum.counts[index] += right.counts[index] }
    return sum
  }

  private static func index(of code: WireErrorCode) -> Int {
    // Every code is one of allCases: the index is always found.
    WireErrorCode.allCases.firstIndex(of: code) ?? 0
  }
}
