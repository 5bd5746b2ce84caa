import ComposableCore
import Platform

/// A hosted app's settings as read from the settings file, then the
/// environment, then flags, each overriding the one before (docs/CLI.md,
/// "Feature settings"): the dependencies the app's reducers see, and which
/// settings were given, for the log.
public struct ResolvedSettings: Sendable {
  /// The live dependencies with every given setting applied.
  public var dependencies = DependencyValues()
  /// The settings given a value, in the app's order, with the value that won
  /// (nil for a secret one).
  public private(set) var given: [(name: String, value: String?)] = []

  /// The settings of `settings` read from `file` (its path and text, if
  /// there is one), then `environment` (`<APP>_<NAME>`), then `flags`
  /// (setting name → value, in order).
  ///
  /// - Throws: ``UsageError`` naming the file and line, the environment
  ///   variable or the flag, and what the setting takes.
  public static func resolve(
    _ settings: [AppSetting], appName: String, file: (path: String, text: String)?, environment: [String: String],
    flags: [(name: String, value: String)]
  ) throws(UsageError) -> ResolvedSettings {
    var resolved = ResolvedSettings()
    var values: [String: String] = [:]
    if let file {
      for entry in try ConfigurationFile.parse(file.text, path: file.path) {
        guard let setting = settings.first(where: { $0.name == entry.key }) else {
          throw UsageError(
            "\(file.path):\(entry.line): unknown setting '\(entry.key)'; known settings: "
              + settings.map(\.name).joined(separator: ", "))
        }
        do {
          try setting.apply(entry.value, to: &resolved.dependencies)
        } catch {
          throw UsageError("\(file.path):\(entry.line): \(error)")
        }
        values[setting.name] = entry.value
      }
    }
    for setting in settings {
      let variable = setting.environmentName(appName: appName)
      guard let value = environment[variable] else { continue }
      do {
        try setting.apply(value, to: &resolved.dependencies)
      } catch {
        throw UsageError("\(variable): \(error)")
      }
      values[setting.name] = value
    }
    for flag in flags {
      guard let setting = settings.first(where: { $0.name == flag.name }) else {
        throw UsageError("unknown option '--\(flag.name)'")
      }
      try setting.apply(flag.value, to: &resolved.dependencies)
      values[setting.name] = flag.value
    }
    resolved.given = settings.compactMap { setting in
      values[setting.name].map { (setting.name, setting.isSecret ? nil : $0) }
    }
    return resolved
  }

  /// The given settings as the log shows them: `store-api = https://…,
  /// gif-api-key set`, or that all are the defaults.
  public var summary: String {
    guard !given.isEmpty else { return "every setting at its default" }
    return given.map { name, value in value.map { "\(name) = \($0)" } ?? "\(name) set" }.joined(separator: ", ")
  }
}
