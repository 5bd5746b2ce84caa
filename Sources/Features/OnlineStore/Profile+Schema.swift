import ComposableCore

extension Profile.Action: DescribedAction {
  /// `profile.fetchProfile`, …
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("fetchProfile", "Loads the profile, unless loading or loaded"),
      ActionCase(
        "profileResponse", "The profile arrived (sent by the HTTP effect)",
        .unlabeled("profile", .json(UserProfile.self, sample: UserProfile.sample))),
      ActionCase(
        "profileFailed", "The profile could not be fetched (sent by the HTTP effect)",
        .unlabeled("failure", EffectFailure.self)),
      ActionCase("recovered", "Fetches again a profile that was loading (sent by storedaemon after a restart)"),
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
