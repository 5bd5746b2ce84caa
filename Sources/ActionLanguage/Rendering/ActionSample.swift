import JSON

/// A valid action for one listed path, built from sample values: tests decode
/// it with the real action type to prove the schema matches the enum.
public struct ActionSample: Hashable, Sendable {
  /// The path the sample exercises.
  public let entry: ActionPathEntry
  /// The action's JSON, as the enum's synthesized `Codable` writes it.
  public let action: JSONValue
}
