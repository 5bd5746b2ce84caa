import ComposableCore
import Features
import StoreDaemon

/// The seed apps as `storedaemon` hosts them: ``AppFeature`` at the root, and
/// the settings that point its features at their APIs and time them
/// (docs/CLI.md, "Feature settings").
enum SeedApps: HostedApp {
  static let name = "storedaemon"
  static let version = "0.2.0"

  static func makeRoot() -> AppFeature { AppFeature() }

  static var initialState: AppFeature.State { AppFeature.State() }

  /// Each sets a field of ``AppConfiguration``, which the features read as
  /// `@Dependency(\.configuration)`.
  static let settings: [AppSetting] = [
    url("store-api", "the online store's API (products, carts, users)", \.storeAPIBaseURL),
    url("numbers-api", "the number facts API", \.numbersAPIBaseURL),
    url("gif-api", "the GIF search API (Giphy's shape)", \.gifSearchBaseURL),
    AppSetting("gif-api-key", value: "KEY", help: "the GIF search API key", secret: true) {
      dependencies, value throws(AppSetting.Invalid) in
      dependencies.configuration.gifSearchAPIKey = value
    },
    seconds("search-debounce", "seconds the search text must rest before a search", \.searchDebounceMilliseconds),
    seconds("request-timeout", "seconds any feature's HTTP request may take", \.requestTimeoutMilliseconds),
    seconds(
      "dice-roll", "seconds a die rolls before it lands (default 0.5; 0 lands it at once)", \.diceRollMilliseconds,
      minimum: 0),
  ]

  /// An http:// or https:// URL, kept without trailing slashes.
  private static func url(
    _ name: String, _ help: String, _ keyPath: WritableKeyPath<AppConfiguration, String> & Sendable
  ) -> AppSetting {
    AppSetting(name, value: "URL", help: help) { dependencies, value throws(AppSetting.Invalid) in
      guard value.hasPrefix("http://") || value.hasPrefix("https://"), value.count > "https://".count,
        !value.contains(where: \.isWhitespace)
      else {
        throw AppSetting.Invalid(expected: "an http:// or https:// URL such as https://fakestoreapi.com")
      }
      var url = value
      while url.hasSuffix("/") { url.removeLast() }
      dependencies.configuration[keyPath: keyPath] = url
    }
  }

  /// A number of seconds from `minimum` to an hour, kept in milliseconds.
  private static func seconds(
    _ name: String, _ help: String, _ keyPath: WritableKeyPath<AppConfiguration, Int> & Sendable,
    minimum: Double = 0.001
  ) -> AppSetting {
    AppSetting(name, value: "S", help: help) { dependencies, value throws(AppSetting.Invalid) in
      guard let seconds = Double(value), seconds >= minimum, seconds <= 3600 else {
        throw AppSetting.Invalid(
          expected: "a number of seconds between \(minimum == 0 ? "0" : "\(minimum)") and 3600")
      }
      dependencies.configuration[keyPath: keyPath] = Int((seconds * 1000).rounded())
    }
  }
}
