/// The settings seed 003's parent keeps: what the settings screen edits and
/// saves.
public struct Preferences: Equatable, Sendable, Codable {
  /// The name the app greets the person with; 1 to ``maximumNameLength`` characters.
  public var displayName: String
  /// Light, dark, or as the system is.
  public var theme: Theme
  /// Whether taps are felt.
  public var isHapticFeedbackEnabled: Bool

  public init(displayName: String = "Friend", theme: Theme = .system, isHapticFeedbackEnabled: Bool = true) {
    self.displayName = displayName
    self.theme = theme
    self.isHapticFeedbackEnabled = isHapticFeedbackEnabled
  }

  /// The longest display name, in characters.
  public static let maximumNameLength = 40

  /// Why ``displayName`` cannot be saved, or `nil` when it can.
  public var displayNameError: String? {
    if displayName.allSatisfy(\.isWhitespace) { return "Enter a name." }
    if displayName.count > Self.maximumNameLength { return "Use at most \(Self.maximumNameLength) characters." }
    return nil
  }
}

/// How the app looks.
public enum Theme: String, Hashable, Sendable, Codable, CaseIterable {
  case system
  case light
  case dark
}
