/// The known word nearest to a misspelt one, for "did you mean" in usage
/// errors: `--fllow` → `--follow`, `stauts` → `status`.
enum NearestWord {
  /// The candidate within a few edits of `word` (at most a third of its
  /// length, at least 1), the nearest first; `nil` when none is that close.
  static func nearest(to word: String, among candidates: [String]) -> String? {
    let allowed = max(1, word.count / 3)
    let scored = candidates.map { ($0, distance(word, $0)) }.filter { $0.1 <= allowed }
    return scored.min { $0.1 < $1.1 }?.0
  }

  /// The Levenshtein distance: the fewest insertions, deletions and
  /// substitutions of characters that turn `a` into `b`.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
