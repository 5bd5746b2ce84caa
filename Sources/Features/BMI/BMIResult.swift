import Glibc

/// A computed body mass index: the value, how it is shown, and its category.
///
/// Kept in state (rather than computed by each view) so that every client of
/// the daemon shows the same number and category.
public struct BMIResult: Hashable, Sendable, Codable {
  /// weight (kg) / height (m)², unrounded.
  public var value: Double
  /// The value with one decimal, as printf's `%.1f` shows it, e.g. "24.2".
  public var formattedValue: String
  /// The category of the unrounded value.
  public var category: BMICategory

  /// The BMI of a person `height` centimetres tall weighing `weight` kilograms.
  public init(height: Double, weight: Double) {
    let metres = height / 100
    let value = weight / (metres * metres)
    self.value = value
    self.formattedValue = Self.oneDecimal(value)
    self.category = BMICategory(bmi: value)
  }

  /// `value` formatted like `String(format: "%.1f", value)` (which is not in
  /// FoundationEssentials), through the C library's own formatter.
  static func oneDecimal(_ value: Double) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let written = withVaList([value]) { arguments in
      vsnprintf(&buffer, buffer.count, "%.1f", arguments)
    }
    guard written >= 0, Int(written) < buffer.count else { return "\(value)" }
    return String(decoding: buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
