import ComposableCore

/// Where the features' HTTP APIs live and how they behave: configuration, not
/// constants, so the daemon can point them at another server (and tests at a
/// local one).
public struct AppConfiguration: Hashable, Sendable, Codable {
  /// The online store's API (products, carts, users), fakestoreapi.com's shape.
  public var storeAPIBaseURL: String
  /// The number facts API, numbersapi.com's shape: `GET {base}/{n}` answers text.
  public var numbersAPIBaseURL: String
  /// The GIF search API, Giphy's shape: `GET {base}/v1/gifs/search`.
  public var gifSearchBaseURL: String
  /// The GIF search API key, sent as `api_key`.
  public var gifSearchAPIKey: String
  /// How long the search text must stay unchanged before a search starts.
  public var searchDebounceMilliseconds: Int
  /// How long any feature's HTTP request may take.
  public var requestTimeoutMilliseconds: Int
  /// How long a die rolls before it lands (the timer the roll asks the timer
  /// worker for); 0 lands it as soon as the timer worker answers.
  public var diceRollMilliseconds: Int

  public init(
    storeAPIBaseURL: String = "https://fakestoreapi.com",
    numbersAPIBaseURL: String = "http://numbersapi.com",
    gifSearchBaseURL: String = "https://api.giphy.com",
    gifSearchAPIKey: String = "",
    searchDebounceMilliseconds: Int = 2000,
    requestTimeoutMilliseconds: Int = 15_000,
    diceRollMilliseconds: Int = 500
  ) {
    self.storeAPIBaseURL = storeAPIBaseURL
    self.numbersAPIBaseURL = numbersAPIBaseURL
    self.gifSearchBaseURL = gifSearchBaseURL
    self.gifSearchAPIKey = gifSearchAPIKey
    self.searchDebounceMilliseconds = searchDebounceMilliseconds
    self.requestTimeoutMilliseconds = requestTimeoutMilliseconds
    self.diceRollMilliseconds = diceRollMilliseconds
  }

  /// The public APIs the seeds use.
  public static let live = AppConfiguration()

  /// Addresses no real host ever answers, so a test can only be answered by
  /// the test itself.
  public static let test = AppConfiguration(
    storeAPIBaseURL: "https://store.test", numbersAPIBaseURL: "http://numbers.test",
    gifSearchBaseURL: "https://gifs.test", gifSearchAPIKey: "test-key")

  /// The debounce interval as a `Duration`.
  public var searchDebounce: Duration { .milliseconds(searchDebounceMilliseconds) }
  /// The request timeout as a `Duration`.
  public var requestTimeout: Duration { .milliseconds(requestTimeoutMilliseconds) }
  /// The dice roll's duration as a `Duration`.
  public var diceRoll: Duration { .milliseconds(diceRollMilliseconds) }
}

enum AppConfigurationKey: DependencyKey {
  static var liveValue: AppConfiguration { .live }
  static var testValue: AppConfiguration? { .test }
}

extension DependencyValues {
  /// The features' API locations and timings.
  public var configuration: AppConfiguration {
    get { self[AppConfigurationKey.self] }
    set { self[AppConfigurationKey.self] = newValue }
  }
}
