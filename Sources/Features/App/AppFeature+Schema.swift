import ActionLanguage
import ComposableCore

extension AppFeature.Action: DescribedAction {
  /// The root of every command-line path: `tabSelected products`,
  /// `cart.addItem 3`, `dice.view.rollButtonTapped`, …
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.tabSelected(.counter), "Shows a tab, fetching what it shows"),
    .init(.counter(.incrementButtonTapped), "The counter with number facts"),
    .init(.dice(.view(.rollButtonTapped)), "The dice roller"),
    .init(.products(.fetchProducts), "The online store's product list"),
    .init(.cart(.payButtonTapped), "The online store's cart"),
    .init(.profile(.fetchProfile), "The online store's profile"),
    .init(.bmi(.input(.saveButtonTapped)), "The BMI calculator and its history"),
    .init(.search(.retryButtonTapped), "The GIF search"),
    .init(.parent(.settingsButtonTapped), "A counter with settings presented over it"),
    .init(.inventory(.addButtonTapped), "Items, their add and edit forms, and their detail screens"),
    .init(
      .recovered, "Restarts or fails what each feature was waiting on when storedaemon stopped", sentBy: .recovery),
  ]
}
