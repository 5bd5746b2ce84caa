/// The nearest valid names to a mistyped one, by edit distance.
enum Suggestions {
  /// The candidates within a few edits of `word` (ignoring case), or that
  /// start with it, nearest first; at most `limit`.
  static func nearest(to word: String, among candidates: [String], limit: Int = 3) -> [String] {
    ranked(word, candidates.map { ($0, [$0]) }).prefix(limit).map(\.0)
  }

  /// The items whose names (any of them) come near `word`, nearest first.
  static func ranked<Item>(_ word: String, _ items: [(Item, [String])]) -> [(Item, Int)] {
    let typed = word.lowercased()
    let length = typed.count
    let threshold = max(1, min(3, length / 3))
    var scored: [(item: Item, score: Int, order: Int)] = []
    for (order, (item, names)) in items.enumerated() {
      let score =
        names.map { name -> Int in
          let candidate = name.lowercased()
          if length >= 3, candidate.hasPrefix(typed) { return 1 }
          // The distance is at least the difference in length: a word far
          // longer than every name is near none, and is not compared letter
          // by letter, so a hostile 60 KB word costs no more than a short one.
          guard abs(candidate.count - length) <= threshold else { return Int.max }
          return distance(typed, candidate)
        }.min() ?? Int.max
      if score <= threshold { scored.append((item, score, order)) }
    }
    return scored.sorted { ($0.score, $0.order) < ($1.score, $1.order) }.map { ($0.item, $0.score) }
  }

  /// The Levenshtein distance between `a` and `b`: insertions, deletions and
  /// substitutions of one character.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in stride(from: 1, through: b.count, by: 1) {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }

  /// "a", "a or b", "a, b or c".
  static func alternatives(_ items: [String]) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " or " + items[items.count - 1]
  }
}
