/// A form field of the BMI calculator and the rules its text must satisfy.
///
/// Text is trimmed of surrounding spaces and must be plain decimal notation:
/// an optional sign, digits and at most one decimal point ("170", "70.5",
/// ".5", "-3"). Exponents ("1e2"), "inf", "nan", hexadecimal and decimal
/// commas are not numbers here, although Swift's `Double(_:)` accepts some.
///
/// Plausible values (inclusive) are 50–280 cm and 2–700 kg: the shortest
/// (54.6 cm) and tallest (272 cm) adults and the heaviest person (635 kg) on
/// record fit with a margin, while the usual slips — height in metres or feet,
/// weight in grams — fall outside and get a message instead of an absurd BMI.
public enum BMIField: String, Hashable, Sendable, Codable, CaseIterable {
  case height
  case weight

  /// The unit the field is entered in.
  public var unit: String {
    switch self {
    case .height: "cm"
    case .weight: "kg"
    }
  }

  /// The values a person can plausibly have, in ``unit``.
  public var plausibleRange: ClosedRange<Double> {
    switch self {
    case .height: 50...280
    case .weight: 2...700
    }
  }

  /// An example of a valid entry, for messages.
  var examples: String {
    switch self {
    case .height: "170 or 170.5"
    case .weight: "70 or 70.5"
    }
  }

  /// The value `text` holds, or why it holds none.
  public func validate(_ text: String) -> Result<Double, BMIFieldError> {
    let trimmed = text.trimmingSpaces
    if trimmed.isEmpty { return .failure(.empty) }
    guard Self.isPlainDecimal(trimmed), let value = Double(trimmed) else { return .failure(.notANumber) }
    if !(value > 0) { return .failure(.notPositive) }
    guard plausibleRange.contains(value) else { return .failure(.outOfRange) }
    return .success(value)
  }

  /// The message for a person when `error` is this field's problem.
  public func message(for error: BMIFieldError) -> String {
    let name = rawValue.prefix(1).uppercased() + rawValue.dropFirst()
    switch error {
    case .empty:
      return "Enter your \(rawValue) in \(unit)."
    case .notANumber:
      return "\(name) must be a number, like \(examples)."
    case .notPositive:
      return "\(name) must be greater than 0 \(unit)."
    case .outOfRange:
      let range = plausibleRange
      return "\(name) must be between \(Int(range.lowerBound)) and \(Int(range.upperBound)) \(unit)."
    }
  }

  /// The message for `text`, or `nil` when it is a valid entry.
  public func message(validating text: String) -> String? {
    if case .failure(let error) = validate(text) { return message(for: error) }
    return nil
  }

  /// Whether `text` is `[+-]?(digits[.digits?] | .digits)`.
  static func isPlainDecimal(_ text: String) -> Bool {
    var characters = Substring(text)
    if let first = characters.first, first == "+" || first == "-" { characters = characters.dropFirst() }
    let parts = characters.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let isDigits: (Substring) -> Bool = { $0.allSatisfy { ("0"..."9").contains($0) } }
    guard parts.allSatisfy(isDigits), parts.contains(where: { !$0.isEmpty }) else { return false }
    return true
  }
}

extension String {
  /// The text without leading and trailing spaces, tabs and newlines.
  fileprivate var trimmingSpaces: String {
    let isSpace: (Character) -> Bool = { $0.isWhitespace }
    guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[start...end])
  }
}
