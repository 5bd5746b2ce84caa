import Foundation

/// How a figure is shown.
enum Unit {
  /// A time, given in seconds, shown in µs.
  case microseconds
  /// A time, given in seconds, shown in ms.
  case milliseconds
  case perSecond
  /// A size, given in bytes, shown in MiB.
  case mebibytes
  case bytes
  /// A plain number, shown with one decimal.
  case count

  func format(_ value: Double) -> String {
    guard value.isFinite else { return "n/a" }
    switch self {
    case .microseconds: return String(format: "%.1f µs", value * 1e6)
    case .milliseconds: return String(format: "%.2f ms", value * 1e3)
    case .perSecond:
      if value >= 1e6 { return String(format: "%.2fM/s", value / 1e6) }
      return value >= 1e3 ? String(format: "%.1fk/s", value / 1e3) : String(format: "%.0f/s", value)
    case .mebibytes: return String(format: "%.1f MiB", value / 1_048_576)
    case .bytes: return "\(Int(value)) B"
    case .count: return String(format: "%.1f", value)
    }
  }
}

/// A target: the figure divided by its reference (or the figure itself, for
/// an absolute one) must be at most or at least a bound.
enum Target {
  case atMost(Double)
  case atLeast(Double)

  func isMet(_ value: Double) -> Bool {
    guard value.isFinite else { return false }
    switch self {
    case .atMost(let bound): return value <= bound
    case .atLeast(let bound): return value >= bound
    }
  }

  func describe(_ show: (Double) -> String) -> String {
    switch self {
    case .atMost(let bound): "≤ \(show(bound))"
    case .atLeast(let bound): "≥ \(show(bound))"
    }
  }
}

/// The table the benchmark prints: each figure beside its reference, their
/// ratio, the target and whether it was met. In smoke mode nothing is judged.
final class Report {
  struct Row {
    var id: String
    var what: String
    var figure: String
    var reference: String
    var ratio: String
    var target: String
    var met: Bool?
  }

  let judged: Bool
  private(set) var rows: [Row] = []
  private(set) var failures: [String] = []

  init(judged: Bool) {
    self.judged = judged
  }

  /// A figure judged by its ratio to a reference figure measured in the same run.
  func ratio(
    _ id: String, _ what: String, _ value: Double, _ unit: Unit, reference: (name: String, value: Double)?,
    target: Target?
  ) {
    let ratio = reference.map { value / $0.value }
    add(
      Row(
        id: id, what: what, figure: unit.format(value),
        reference: reference.map { "\($0.name) \(unit.format($0.value))" } ?? "n/a",
        ratio: ratio.map { String(format: "%.2f ×", $0) } ?? "",
        target: target.map { "ratio \($0.describe { String(format: "%.1f", $0) })" } ?? "",
        met: target.flatMap { target in ratio.map { target.isMet($0) } }))
  }

  /// A figure judged on its own (a time or a size bound).
  func absolute(_ id: String, _ what: String, _ value: Double, _ unit: Unit, target: Target?, note: String = "") {
    add(
      Row(
        id: id, what: what, figure: unit.format(value), reference: note, ratio: "",
        target: target.map { $0.describe(unit.format) } ?? "", met: target.map { $0.isMet(value) }))
  }

  /// A fact judged true or false (no watcher missed a diff, the diffs are the same size).
  func check(_ id: String, _ what: String, _ figure: String, holds: Bool, target: String) {
    add(Row(id: id, what: what, figure: figure, reference: "", ratio: "", target: target, met: holds))
  }

  /// A figure not measured, and why (what it needs is missing); not a failure.
  func skipped(_ id: String, _ what: String, because why: String) {
    add(Row(id: id, what: what, figure: "skipped: \(why)", reference: "", ratio: "", target: "", met: nil))
  }

  /// A measurement that could not be made; the run goes on and exits non-zero.
  func failed(_ id: String, _ error: Error) {
    failures.append("\(id): \(error)")
    add(Row(id: id, what: "FAILED: \(error)", figure: "", reference: "", ratio: "", target: "", met: nil))
  }

  private func add(_ row: Row) {
    var row = row
    if !judged { row.met = nil }
    rows.append(row)
    let mark = row.met.map { $0 ? "met" : "NOT MET" } ?? ""
    print(
      "  \(row.id)\t\(row.what): \(row.figure)\(row.reference.isEmpty ? "" : " | \(row.reference)")\(row.ratio.isEmpty ? "" : " | \(row.ratio)") \(row.target) \(mark)"
    )
    fflush(nil)  // every stream: the table lines show as they are measured
  }

  /// The whole table, in Markdown.
  var markdown: String {
    var lines = [
      "| | measure | storedaemon | reference | ratio | target | met |",
      "|---|---|---|---|---|---|---|",
    ]
    for row in rows {
      let met = row.met.map { $0 ? "yes" : "**no**" } ?? (judged ? "" : "(smoke)")
      lines.append(
        "| \(row.id) | \(row.what) | \(row.figure) | \(row.reference) | \(row.ratio) | \(row.target) | \(met) |")
    }
    let judgedRows = rows.compactMap(\.met)
    if judged {
      lines.append("")
      lines.append("Targets met: \(judgedRows.filter { $0 }.count) of \(judgedRows.count).")
    }
    return lines.joined(separator: "\n")
  }
}
