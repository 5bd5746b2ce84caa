/// The `fraction` quantile (0.5 for the median) of `samples`, nearest rank.
func percentile(_ samples: [Double], _ fraction: Double) -> Double {
  guard !samples.isEmpty else { return .nan }
  let sorted = samples.sorted()
  let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
  return sorted[min(max(rank, 0), sorted.count - 1)]
}
