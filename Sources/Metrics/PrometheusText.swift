/// Metrics written in Prometheus' text exposition format (version 0.0.4),
/// the format every Prometheus server and most monitoring agents scrape:
/// each family a `# HELP` and a `# TYPE` line, then its samples, one per
/// line, `name{label="value",…} value`.
///
/// Names and label names are the program's own constants; label values and
/// help text may hold anything and are escaped as the format says.
public struct PrometheusText {
  /// What a scrape answers with in its `Content-Type`.
  public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

  /// The exposition so far.
  public private(set) var text = ""

  public init() {}

  /// Starts the family `name`: its help line and its type line. Its samples
  /// follow.
  public mutating func family(_ name: String, _ type: MetricType, help: String) {
    // invariant: names are the program's constants, never input
    assert(Self.isName(name), "not a metric name: \(name)")
    text += "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(type.rawValue)\n"
  }

  /// One sample of the family begun last (or, for a histogram, one of its
  /// `_bucket`, `_sum` and `_count` series).
  public mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Double) {
    text += name
    if !labels.isEmpty {
      text += "{"
      for (index, (label, labelValue)) in labels.enumerated() {
        // invariant: label names are the program's constants, never input
        assert(Self.isName(label) && !label.contains(":"), "not a label name: \(label)")
        if index > 0 { text += "," }
        text += label + "=\"" + Self.escapedLabelValue(labelValue) + "\""
      }
      text += "}"
    }
    text += " " + Self.format(value) + "\n"
  }

  /// An integer sample (counts, bytes, versions), written without a fraction.
  public mutating func sample(_ name: String, _ labels: [(String, String)], _ value: some BinaryInteger) {
    sample(name, labels, Double(value))
  }

  /// A whole family of one sample: help, type, value.
  public mutating func single(
    _ name: String, _ type: MetricType, help: String, labels: [(String, String)] = [], _ value: Double
  ) {
    family(name, type, help: help)
    sample(name, labels, value)
  }

  /// A whole family of one integer sample.
  public mutating func single(
    _ name: String, _ type: MetricType, help: String, labels: [(String, String)] = [],
    _ value: some BinaryInteger
  ) {
    single(name, type, help: help, labels: labels, Double(value))
  }

  /// The series of one histogram of the family begun last: a cumulative
  /// `_bucket` per bound and `+Inf`, then `_sum` and `_count`.
  public mutating func histogram(_ name: String, _ labels: [(String, String)], _ histogram: Histogram) {
    var cumulative: UInt64 = 0
    for (bound, count) in zip(histogram.bounds, histogram.counts) {
      cumulative += count
      sample(name + "_bucket", labels + [("le", Self.format(bound))], cumulative)
    }
    sample(name + "_bucket", labels + [("le", "+Inf")], histogram.count)
    sample(name + "_sum", labels, histogram.sum)
    sample(name + "_count", labels, histogram.count)
  }

  /// A whole histogram family of one series.
  public mutating func histogram(_ name: String, help: String, _ histogram: Histogram) {
    family(name, .histogram, help: help)
    self.histogram(name, [], histogram)
  }

  /// `value` as the format writes numbers: integers without a fraction,
  /// `+Inf`, `-Inf` and `NaN` by name, others as Swift's shortest
  /// round-tripping decimal.
  static func format(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value < 0 ? "-Inf" : "+Inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }

  /// Whether `name` is a metric or label name: `[a-zA-Z_:][a-zA-Z0-9_:]*`.
  static func isName(_ name: String) -> Bool {
    guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
      return false
    }
    return name.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: ":"):
        true
      default: false
      }
    }
  }

  /// Help text with `\` and line feeds escaped.
  static func escapedHelp(_ help: String) -> String {
    escaped(help, quotes: false)
  }

  /// A label value with `\`, `"` and line feeds escaped.
  static func escapedLabelValue(_ value: String) -> String {
    escaped(value, quotes: true)
  }

  private static func escaped(_ string: String, quotes: Bool) -> String {
    guard string.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == 10 || (quotes && $0 == UInt8(ascii: "\"")) })
    else { return string }
    var result = ""
    for character in string.unicodeScalars {
      switch character {
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\"" where quotes: result += "\\\""
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }
}

/// A metric family's type, as its `# TYPE` line names it.
public enum MetricType: String, Sendable {
  /// Only goes up (and back to zero when the process restarts): a rate is
  /// taken of it.
  case counter
  /// Goes up and down: read as it is.
  case gauge
  /// Observations counted into buckets, with their sum and count.
  case histogram
}
