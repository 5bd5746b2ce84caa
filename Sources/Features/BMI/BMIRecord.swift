import FoundationEssentials

/// One saved BMI measurement (the seed's `BMI` model): what was entered and
/// when, under an id that is also its storage key.
///
/// The id and date come from the `\.uuid` and `\.date` dependencies when the
/// entry is saved, not when it is read, so records compare equal in tests.
public struct BMIRecord: Hashable, Sendable, Codable, Identifiable {
  public var id: UUID
  /// Height in centimetres.
  public var height: Double
  /// Weight in kilograms.
  public var weight: Double
  /// When the measurement was saved.
  public var date: Date

  public init(id: UUID, height: Double, weight: Double, date: Date) {
    self.id = id
    self.height = height
    self.weight = weight
    self.date = date
  }

  /// The body mass index of this measurement.
  public var result: BMIResult { BMIResult(height: height, weight: weight) }

  /// Whether this record belongs before `other` in the history: newer first,
  /// and by id when two were saved at the same instant, so the order is stable.
  public func isListed(before other: BMIRecord) -> Bool {
    if date != other.date { return date > other.date }
    return id.uuidString < other.id.uuidString
  }
}
