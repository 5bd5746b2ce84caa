/// Why a form field's text is not a usable measurement; ``BMIField/message(for:)``
/// turns it into the message shown next to the field.
public enum BMIFieldError: Error, Hashable, Sendable, Codable, CaseIterable {
  /// Nothing was entered.
  case empty
  /// The text is not plain decimal notation.
  case notANumber
  /// The number is zero or negative.
  case notPositive
  /// The number is outside the field's plausible range.
  case outOfRange
}
