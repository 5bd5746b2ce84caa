import Features
import Platform

/// The features' settings (``AppConfiguration``) as `storedaemon` reads them:
/// from a configuration file, the environment, and flags, each overriding the
/// one before (docs/CLI.md, "Feature settings").
///
/// Every setting has one name, used as the flag (`--store-api`), the file key
/// (`store-api = …`) and, upper-cased with a `STOREDAEMON_` prefix, the
/// environment variable (`STOREDAEMON_STORE_API`).
struct FeatureSetting: Sendable {
  let name: String
  let valueName: String
  let help: String
  let apply: @Sendable (inout AppConfiguration, String) throws(UsageError) -> Void

  /// The environment variable that sets it.
  var environmentName: String {
    "STOREDAEMON_" + String(name.uppercased().map { $0 == "-" ? "_" : $0 })
  }

  static let all: [FeatureSetting] = [
    url("store-api", "the online store's API (products, carts, users)", \.storeAPIBaseURL),
    url("numbers-api", "the number facts API", \.numbersAPIBaseURL),
    url("gif-api", "the GIF search API (Giphy's shape)", \.gifSearchBaseURL),
    FeatureSetting(name: "gif-api-key", valueName: "KEY", help: "the GIF search API key") {
      configuration, value throws(UsageError) in
      configuration.gifSearchAPIKey = value
    },
    milliseconds("search-debounce", "seconds the search text must rest before a search", \.searchDebounceMilliseconds),
    milliseconds("request-timeout", "seconds any feature's HTTP request may take", \.requestTimeoutMilliseconds),
    milliseconds(
      "dice-roll", "seconds a die rolls before it lands (default 0.5; 0 lands it at once)", \.diceRollMilliseconds,
      minimum: 0),
  ]

  /// The setting called `name`, if there is one.
  static func named(_ name: String) -> FeatureSetting? {
    all.first { $0.name == name }
  }

  private static func url(
    _ name: String, _ help: String, _ keyPath: WritableKeyPath<AppConfiguration, String> & Sendable
  ) -> FeatureSetting {
    FeatureSetting(name: name, valueName: "URL", help: help) { configuration, value throws(UsageError) in
      guard value.hasPrefix("http://") || value.hasPrefix("https://"), value.count > "https://".count,
        !value.contains(where: \.isWhitespace)
      else {
        throw UsageError("\(name) takes an http:// or https:// URL such as https://fakestoreapi.com, got '\(value)'")
      }
      var url = value
      while url.hasSuffix("/") { url.removeLast() }
      configuration[keyPath: keyPath] = url
    }
  }

  private static func milliseconds(
    _ name: String, _ help: String, _ keyPath: WritableKeyPath<AppConfiguration, Int> & Sendable,
    minimum: Double = 0.001
  ) -> FeatureSetting {
    FeatureSetting(name: name, valueName: "S", help: help) { configuration, value throws(UsageError) in
      guard let seconds = Double(value), seconds >= minimum, seconds <= 3600 else {
        throw UsageError(
          "\(name) takes a number of seconds between \(minimum == 0 ? "0" : "\(minimum)") and 3600, got '\(value)'")
      }
      configuration[keyPath: keyPath] = Int((seconds * 1000).rounded())
    }
  }
}

extension AppConfiguration {
  /// The configuration from `file` (the text of the configuration file, if
  /// there is one), then `environment`, then `flags` (setting name → value).
  static func resolve(
    file: (path: String, text: String)?, environment: [String: String], flags: [(name: String, value: String)]
  ) throws(UsageError) -> AppConfiguration {
    var configuration = AppConfiguration.live
    if let file {
      for entry in try ConfigurationFile.parse(file.text, path: file.path) {
        guard let setting = FeatureSetting.named(entry.key) else {
          throw UsageError(
            "\(file.path):\(entry.line): unknown setting '\(entry.key)'; known settings: "
              + FeatureSetting.all.map(\.name).joined(separator: ", "))
        }
        do {
          try setting.apply(&configuration, entry.value)
        } catch {
          throw UsageError("\(file.path):\(entry.line): \(error)")
        }
      }
    }
    for setting in FeatureSetting.all {
      guard let value = environment[setting.environmentName] else { continue }
      do {
        try setting.apply(&configuration, value)
      } catch {
        throw UsageError("\(setting.environmentName): \(error)")
      }
    }
    for flag in flags {
      // Flags are matched to settings by the parser, so the name is known.
      try FeatureSetting.named(flag.name)!.apply(&configuration, flag.value)
    }
    return configuration
  }
}
