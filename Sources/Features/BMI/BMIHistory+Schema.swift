import ActionLanguage
import ComposableCore
import FoundationEssentials

extension BMIHistory.Action: DescribedAction {
  /// `bmi.history.onAppear`, `bmi.history.delete <id>`, …
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.onAppear, "Reloads the history from storage"),
    .init(
      .loaded(records: [.example], unreadable: ["2024-01-01: not a BMI record"]), "Storage listed the history",
      sentBy: .storageEffect),
    .init(.loadFailed(.example), "Storage could not list the history", sentBy: .storageEffect),
    .init(.delete(id: BMIRecord.example.id), "Deletes the entry with this id"),
    .init(
      .deleteFailed(.example, .example), "Storage could not delete the record, which goes back",
      sentBy: .storageEffect),
    .init(.dismissMessages, "Dismisses the error and unreadable-entries messages"),
    .init(.recovered, "Lists again a history that was loading", sentBy: .recovery),
  ]
}

extension BMIRecord {
  /// A record as storage lists one, for the described cases' samples.
  static let example = BMIRecord(
    id: UUID(uuidString: "3F2504E0-4F89-41D3-9A0C-0305E82C3301") ?? UUID(), height: 180, weight: 75,
    date: Date(timeIntervalSinceReferenceDate: 0))
}
