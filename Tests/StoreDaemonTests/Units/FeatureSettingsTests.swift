import Features
import Foundation
import Platform
import Testing

@testable import SeedApps
@testable import StoreDaemon

/// The seed apps' settings as `storedaemon` resolves them.
@Suite struct FeatureSettingsTests {
  /// The seed apps' settings from `file`, `environment` and `flags`, as the
  /// features read them.
  func resolve(
    file: (path: String, text: String)?, environment: [String: String], flags: [(name: String, value: String)]
  ) throws(UsageError) -> AppConfiguration {
    try ResolvedSettings.resolve(
      SeedApps.settings, appName: SeedApps.name, file: file, environment: environment, flags: flags
    ).dependencies.configuration
  }

  @Test func flagsWinOverTheEnvironmentWhichWinsOverTheFile() throws {
    let file = """
      # the store's settings
      store-api = http://file.example/store/
      numbers-api = http://file.example/numbers
      gif-api-key = from-file

      search-debounce = 0.25
      """
    let configuration = try resolve(
      file: ("/etc/storedaemon.conf", file),
      environment: ["STOREDAEMON_NUMBERS_API": "http://env.example/numbers", "STOREDAEMON_GIF_API_KEY": "from-env"],
      flags: [("gif-api-key", "from-flag"), ("request-timeout", "2.5")])
    #expect(configuration.storeAPIBaseURL == "http://file.example/store")
    #expect(configuration.numbersAPIBaseURL == "http://env.example/numbers")
    #expect(configuration.gifSearchBaseURL == AppConfiguration.live.gifSearchBaseURL)
    #expect(configuration.gifSearchAPIKey == "from-flag")
    #expect(configuration.searchDebounceMilliseconds == 250)
    #expect(configuration.requestTimeoutMilliseconds == 2500)
  }

  @Test(arguments: [
    ("store-api = ftp://x", "/c:1: store-api takes an http:// or https:// URL"),
    ("colour = blue", "/c:1: unknown setting 'colour'; known settings: store-api, numbers-api"),
    ("\n\nstore-api", "/c:3: expected 'name = value', got 'store-api'"),
    ("search-debounce = soon", "/c:1: search-debounce takes a number of seconds"),
    ("gif-api-key = a\ngif-api-key = b", "/c:2: 'gif-api-key' is already set on line 1"),
  ])
  func aBadFileNamesTheLineAndWhatWasExpected(_ text: String, _ expected: String) {
    #expect {
      try resolve(file: ("/c", text), environment: [:], flags: [])
    } throws: { error in
      "\(error)".hasPrefix(expected)
    }
  }

  @Test func blanksAroundNamesAndValuesAreTrimmed() throws {
    let file = "\t store-api\t=  http://file.example/s \t\n  \t\n\t# note\ngif-api-key=k"
    let configuration = try resolve(file: ("/c", file), environment: [:], flags: [])
    #expect(configuration.storeAPIBaseURL == "http://file.example/s")
    #expect(configuration.gifSearchAPIKey == "k")
  }

  @Test func theDiceRollMayBeZeroButNotNegative() throws {
    let configuration = try resolve(file: nil, environment: [:], flags: [("dice-roll", "0")])
    #expect(configuration.diceRollMilliseconds == 0)
    #expect(AppConfiguration.live.diceRoll == .milliseconds(500))
    #expect {
      try resolve(file: nil, environment: [:], flags: [("dice-roll", "-1")])
    } throws: { error in
      "\(error)" == "dice-roll takes a number of seconds between 0 and 3600, got '-1'"
    }
  }

  @Test func aBadEnvironmentVariableIsNamed() {
    #expect {
      try resolve(file: nil, environment: ["STOREDAEMON_STORE_API": "nowhere"], flags: [])
    } throws: { error in
      "\(error)".hasPrefix("STOREDAEMON_STORE_API: store-api takes an http:// or https:// URL")
    }
  }

  @Test func theDaemonReadsFlagsAndTheFileInItsStateDirectory() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try "gif-api-key = k1\nnumbers-api = http://127.0.0.1:9/n\n".write(
      toFile: directory + "/storedaemon.conf", atomically: true, encoding: .utf8)
    let options = try DaemonOptions.parse(
      ["--state-dir", directory, "--store-api", "http://127.0.0.1:8/s", "--effectworker", "/opt/effectworker"],
      environment: [:], app: SeedApps.self)
    #expect(options.settings.dependencies.configuration.storeAPIBaseURL == "http://127.0.0.1:8/s")
    #expect(options.settings.dependencies.configuration.numbersAPIBaseURL == "http://127.0.0.1:9/n")
    #expect(options.settings.dependencies.configuration.gifSearchAPIKey == "k1")
    #expect(options.configurationFile == directory + "/storedaemon.conf")
    #expect(options.workerExecutable == "/opt/effectworker")
  }

  @Test func aMissingExplicitFileOrABadFlagIsAUsageError() {
    #expect(throws: UsageError.self) {
      try DaemonOptions.parse(["--config", "/nonexistent/x.conf"], environment: [:], app: SeedApps.self)
    }
    #expect {
      try DaemonOptions.parse(["--store-api", "fakestoreapi.com"], environment: [:], app: SeedApps.self)
    } throws: { error in
      "\(error)".contains(
        "store-api takes an http:// or https:// URL such as https://fakestoreapi.com, got 'fakestoreapi.com'")
    }
  }
}
