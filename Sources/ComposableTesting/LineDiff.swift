/// A line-by-line diff of two texts, shown as "−" (expected) and "+" (actual)
/// lines with unchanged context, long unchanged runs folded.
enum LineDiff {
  static func render(expected: [String], actual: [String], context: Int = 3) -> String {
    let operations = diff(expected, actual)
    var output: [String] = []
    var index = 0
    while index < operations.count {
      guard case .same = operations[index].kind else {
        output.append(operations[index].rendered)
        index += 1
        continue
      }
      var end = index
      while end < operations.count, case .same = operations[end].kind { end += 1 }
      let run = operations[index..<end]
      let keepHead = index == 0 ? 0 : context
      let keepTail = end == operations.count ? 0 : context
      if run.count > keepHead + keepTail + 1 {
        output.append(contentsOf: run.prefix(keepHead).map(\.rendered))
        output.append("  … (\(run.count - keepHead - keepTail) unchanged lines)")
        output.append(contentsOf: run.suffix(keepTail).map(\.rendered))
      } else {
        output.append(contentsOf: run.map(\.rendered))
      }
      index = end
    }
    return output.joined(separator: "\n")
  }

  struct Operation {
    enum Kind { case same, removed, added }
    let kind: Kind
    let line: String

    var rendered: String {
      switch kind {
      case .same: "  " + line
      case .removed: "− " + line
      case .added: "+ " + line
      }
    }
  }

  /// Longest-common-subsequence diff; quadratic, fine for state dumps in tests.
  static func diff(_ old: [String], _ new: [String]) -> [Operation] {
    let n = old.count
    let m = new.count
    var lengths = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
      }
    }
    var operations: [Operation] = []
    var i = 0
    var j = 0
    while i < n || j < m {
      if i < n, j < m, old[i] == new[j] {
        operations.append(Operation(kind: .same, line: old[i]))
        i += 1
        j += 1
      } else if i < n, j == m || lengths[i + 1][j] >= lengths[i][j + 1] {
        operations.append(Operation(kind: .removed, line: old[i]))
        i += 1
      } else {
        operations.append(Operation(kind: .added, line: new[j]))
        j += 1
      }
    }
    return operations
  }
}
