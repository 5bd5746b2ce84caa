import ActionLanguage
import ComposableCore
import FoundationEssentials

extension BMIRecord: DescribedValue {
  /// Only storage produces records, so the actions carrying one are internal;
  /// for debugging they take one as JSON, e.g.
  /// `'{"id":"…","height":180,"weight":75,"date":"2026-11-21T09:30:00Z"}'`
  /// (the date in ISO 8601, as the daemon reads dates).
  public static var valueSchema: ValueSchema { .json(BMIRecord.self, sample: schemaSample) }

  /// A valid record, for examples and the schema's tests.
  static let schemaSample = BMIRecord(
    id: UUID(uuidString: "3F2504E0-4F89-41D3-9A0C-0305E82C3301") ?? UUID(), height: 180, weight: 75,
    date: Date(timeIntervalSinceReferenceDate: 0))
}
