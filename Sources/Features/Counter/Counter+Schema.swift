import ActionLanguage
import ComposableCore

extension Counter.Action: DescribedAction {
  /// `counter.incrementButtonTapped`, `counter.numberFactButtonTapped`, …
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.incrementButtonTapped, "Adds one to the count"),
    .init(.decrementButtonTapped, "Subtracts one from the count"),
    .init(.numberFactButtonTapped, "Fetches a fact about the current count"),
    .init(.numberFactResponse("0 is the additive identity."), "A fact arrived", sentBy: .httpEffect),
    .init(.numberFactFailed(.example), "The fact could not be fetched", sentBy: .httpEffect),
    .init(.recovered, "Fetches again a fact that was loading", sentBy: .recovery),
  ]
}
