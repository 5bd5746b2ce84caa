import ActionLanguage
import ComposableCore

extension Profile.Action: DescribedAction {
  /// `profile.fetchProfile`, …
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("fetchProfile", "Loads the profile, unless loading or loaded"),
      ActionCase(
        "profileResponse", "The profile arrived", sentBy: .httpEffect,
        .unlabeled("profile", .json(UserProfile.self, sample: UserProfile.sample))),
      ActionCase(
        "profileFailed", "The profile could not be fetched", sentBy: .httpEffect,
        .unlabeled("failure", EffectFailure.self)),
      ActionCase("recovered", "Fetches again a profile that was loading", sentBy: .recovery),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .fetchProfile: "fetchProfile"
    case .profileResponse: "profileResponse"
    case .profileFailed: "profileFailed"
    case .recovered: "recovered"
    }
  }
}
