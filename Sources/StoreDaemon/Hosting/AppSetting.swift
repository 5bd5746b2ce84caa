import ComposableCore
import Platform

/// One setting of a hosted app: a name, what it takes, and how its value
/// changes the dependencies the app's reducers read.
///
/// The name is the flag (`--store-api`), the settings file's key
/// (`mail-server = …`) and, upper-cased after the app's name, the environment
/// variable (`TODOS_MAIL_SERVER` for an app called `todos`):
///
/// ```swift
/// AppSetting("mail-server", value: "URL", help: "where reminders are sent") { dependencies, text in
///   guard text.hasPrefix("https://") else { throw AppSetting.Invalid(expected: "an https:// URL") }
///   dependencies.mail.server = text
/// }
/// ```
public struct AppSetting: Sendable {
  /// A value the setting does not take: `expected` says what it takes, as in
  /// "store-api takes `an https:// URL`, got 'x'".
  public struct Invalid: Error, Sendable {
    public let expected: String
    public init(expected: String) { self.expected = expected }
  }

  public let name: String
  /// What the value is, for `--help`: `URL`, `S`, `KEY`.
  public let valueName: String
  /// What the setting sets, for `--help`.
  public let help: String
  /// Whether the log says only that it is set, never its value (a key, a password).
  public let isSecret: Bool
  /// Reads `value` into the dependencies.
  public let apply: @Sendable (_ dependencies: inout DependencyValues, _ value: String) throws(Invalid) -> Void

  public init(
    _ name: String, value valueName: String, help: String, secret isSecret: Bool = false,
    apply: @escaping @Sendable (_ dependencies: inout DependencyValues, _ value: String) throws(Invalid) -> Void
  ) {
    self.name = name
    self.valueName = valueName
    self.help = help
    self.isSecret = isSecret
    self.apply = apply
  }

  /// The environment variable that sets it for an app called `appName`.
  public func environmentName(appName: String) -> String {
    Self.environmentPrefix(appName: appName) + Self.upperSnakeCase(name)
  }

  /// What the environment variables of an app's settings start with: `STOREDAEMON_`.
  public static func environmentPrefix(appName: String) -> String {
    upperSnakeCase(appName) + "_"
  }

  private static func upperSnakeCase(_ text: String) -> String {
    String(text.uppercased().map { $0 == "-" ? "_" : $0 })
  }

  /// Applies `value`; throws a usage error naming the setting, what it
  /// takes and what it got.
  func apply(_ value: String, to dependencies: inout DependencyValues) throws(UsageError) {
    do {
      try apply(&dependencies, value)
    } catch {
      throw .invalidValue(value, for: name, expected: error.expected)
    }
  }
}
