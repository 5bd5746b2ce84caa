import ActionLanguage
import ComposableCore

extension Profile.Action: DescribedAction {
  /// `profile.fetchProfile`, …
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.fetchProfile, "Loads the profile, unless loading or loaded"),
    .init(.profileResponse(.sample), "The profile arrived", sentBy: .httpEffect),
    .init(.profileFailed(.example), "The profile could not be fetched", sentBy: .httpEffect),
    .init(.recovered, "Fetches again a profile that was loading", sentBy: .recovery),
  ]
}
