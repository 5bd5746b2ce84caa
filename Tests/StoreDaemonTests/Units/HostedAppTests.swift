import ActionLanguage
import ComposableCore
import Foundation
import JSON
import Platform
import TestSupport
import Testing

@testable import StoreDaemon

/// What a greeting app's reducers read: set by its settings.
struct Greeting: Sendable, Equatable {
  var text = "hello"
  var pauseMilliseconds = 1000
  var token = ""
}

private enum GreetingKey: DependencyKey {
  static var liveValue: Greeting { Greeting() }
}

extension DependencyValues {
  var greeting: Greeting {
    get { self[GreetingKey.self] }
    set { self[GreetingKey.self] = newValue }
  }
}

/// An app of the tests' own, not a seed app: a greeter counting greetings,
/// hosted through the library with settings of its own.
enum Greeter: HostedApp {
  struct Root: Reducer {
    struct State: Codable, Equatable, Sendable {
      var greetings = 0
    }
    enum Action: Codable, Sendable, Equatable, DescribedAction {
      case greet

      static let describedCases: [DescribedCase<Self>] = [.init(.greet, "Greets once")]
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.greetings += 1
      return .none
    }
  }

  static let name = "greeter-daemon"
  static let version = "1.2.3"
  static func makeRoot() -> Root { Root() }
  static var initialState: Root.State { Root.State(greetings: 3) }
  static let settings: [AppSetting] = [
    AppSetting("greeting", value: "TEXT", help: "what a greeting says") {
      dependencies, value throws(AppSetting.Invalid) in
      guard !value.isEmpty else { throw AppSetting.Invalid(expected: "some words") }
      dependencies.greeting.text = value
    },
    AppSetting("pause", value: "S", help: "seconds between greetings") {
      dependencies, value throws(AppSetting.Invalid) in
      guard let seconds = Double(value), seconds > 0 else { throw AppSetting.Invalid(expected: "a positive number") }
      dependencies.greeting.pauseMilliseconds = Int(seconds * 1000)
    },
    AppSetting("token", value: "KEY", help: "the greeting service's token", secret: true) {
      dependencies, value throws(AppSetting.Invalid) in
      dependencies.greeting.token = value
    },
  ]
}

/// The library hosts an app it does not know: its settings resolve from the
/// file, the environment and flags under its own name, and its state
/// recovers from its own initial state.
@Suite(.ownThreads) struct HostedAppTests {
  func resolve(
    file: String? = nil, environment: [String: String] = [:], flags: [(name: String, value: String)] = []
  ) throws(UsageError) -> ResolvedSettings {
    try ResolvedSettings.resolve(
      Greeter.settings, appName: Greeter.name, file: file.map { ("/etc/greeter-daemon.conf", $0) },
      environment: environment, flags: flags)
  }

  @Test func flagsWinOverTheEnvironmentWhichWinsOverTheFile() throws {
    let resolved = try resolve(
      file: "greeting = from the file\npause = 2\ntoken = t-file\n",
      environment: ["GREETER_DAEMON_PAUSE": "3", "GREETER_DAEMON_TOKEN": "t-env", "STOREDAEMON_PAUSE": "9"],
      flags: [("token", "t-flag")])
    #expect(
      resolved.dependencies.greeting == Greeting(text: "from the file", pauseMilliseconds: 3000, token: "t-flag"))
    // A secret's value stays out of the log.
    #expect(resolved.summary == "greeting = from the file, pause = 3, token set")
    #expect(try resolve().dependencies.greeting == Greeting())
    #expect(try resolve().summary == "every setting at its default")
  }

  @Test(arguments: [
    ("pause = soon", [:], "/etc/greeter-daemon.conf:1: pause takes a positive number, got 'soon'"),
    (
      "colour = blue", [:],
      "/etc/greeter-daemon.conf:1: unknown setting 'colour'; known settings: greeting, pause, token"
    ),
    ("", ["GREETER_DAEMON_GREETING": ""], "GREETER_DAEMON_GREETING: greeting takes some words, got ''"),
  ])
  func aBadSettingNamesWhereItCameFromAndWhatItTakes(
    _ file: String, _ environment: [String: String], _ message: String
  ) {
    #expect {
      try resolve(file: file, environment: environment)
    } throws: { error in
      "\(error)" == message
    }
  }

  @Test func theDaemonOptionsUseTheAppsNameAndSettings() throws {
    let directory = try TemporaryDirectory()
    try "greeting = hi\n".write(toFile: directory.path + "/greeter-daemon.conf", atomically: true, encoding: .utf8)
    let options = try DaemonOptions.parse(
      ["--state-dir", directory.path, "--pause", "0.5"], environment: ["XDG_RUNTIME_DIR": "/run/user/7"],
      app: Greeter.self)
    #expect(options.socketPath == "/run/user/7/greeter-daemon/greeter-daemon.sock")
    #expect(options.configurationFile == directory.path + "/greeter-daemon.conf")
    #expect(options.settings.dependencies.greeting == Greeting(text: "hi", pauseMilliseconds: 500))
    #expect {
      try DaemonOptions.parse(["--pause", "-1"], environment: [:], app: Greeter.self)
    } throws: { error in
      "\(error)" == "pause takes a positive number, got '-1'"
    }
    #expect {
      try DaemonOptions.parse(["--store-api", "http://x.example"], environment: [:], app: Greeter.self)
    } throws: { error in
      "\(error)" == "unknown option '--store-api'"
    }

    // A reload reads the file again: a setting taken out of it is back at its default.
    try "pause = 4\n".write(toFile: directory.path + "/greeter-daemon.conf", atomically: true, encoding: .utf8)
    let reloaded = try DaemonOptions.parse(["--state-dir", directory.path], environment: [:], app: Greeter.self)
    #expect(reloaded.settings.dependencies.greeting == Greeting(pauseMilliseconds: 4000))
  }

  @Test func theHelpNamesTheAppAndListsItsSettings() {
    let usage = DaemonOptions.usage(for: Greeter.self)
    #expect(usage.hasPrefix("usage: greeter-daemon [options]\n"))
    #expect(usage.contains("(default: greeter-daemon.conf in the state"))
    #expect(usage.contains("feature settings (flag, or GREETER_DAEMON_<NAME> in the environment, or"))
    #expect(usage.contains("\n  --greeting TEXT        what a greeting says\n"))
    #expect(usage.contains("\n  --token KEY            the greeting service's token\n"))
    #expect(!usage.contains("storedaemon"))
  }

  @Test func aNewJournalStartsFromTheAppsInitialState() throws {
    let directory = try TemporaryDirectory()
    let options = try DaemonOptions.parse(["--state-dir", directory.path], environment: [:], app: Greeter.self)
    let recovery = try StateRecovery.run(
      options: options, retained: 16, initialState: Greeter.initialState,
      schema: Greeter.Root.Action.actionSchema, appSchema: Greeter.schema, build: Greeter.build)
    #expect(recovery.state == Greeter.Root.State(greetings: 3))
    #expect(recovery.document == .object(["greetings": .int(3)]))
    #expect(recovery.version == 0)
    try recovery.writer.close()
  }

  /// Writes a journal of schema 1 (``Greeter``'s) in `directory`; the
  /// options that name it.
  static func schemaOneJournal(in directory: TemporaryDirectory) throws -> DaemonOptions {
    let options = try DaemonOptions.parse(["--state-dir", directory.path], environment: [:], app: Greeter.self)
    // The directory's lock goes with the writer, closed here.
    let first = try StateRecovery.run(
      options: options, retained: 16, initialState: Greeter.initialState,
      schema: Greeter.Root.Action.actionSchema, appSchema: Greeter.schema, build: Greeter.build)
    try first.writer.close()
    return options
  }

  /// The contents of the files in `journal`, but its lock, in name order.
  static func files(in journal: String) throws -> [Data] {
    try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0 != "lock" }.sorted().map {
      try Data(contentsOf: URL(fileURLWithPath: journal + "/" + $0))
    }
  }

  /// A build of schema 2 with no migration from 1 refuses schema 1's data,
  /// naming the migration to write, and changes no file.
  @Test func dataWithoutAMigrationToThisSchemaIsRefusedUntouched() throws {
    let directory = try TemporaryDirectory()
    let options = try Self.schemaOneJournal(in: directory)
    let journal = directory.path + "/journal"
    let before = try Self.files(in: journal)
    #expect {
      try StateRecovery.run(
        options: options, retained: 16, initialState: Greeter.initialState,
        schema: Greeter.Root.Action.actionSchema, appSchema: AppSchema(version: 2, migrations: []),
        build: "greeter-daemon 2.0.0")
    } throws: { error in
      let message = "\(error)"
      return error is RecoveryFailure && message.contains("(schema 1)")
        && message.contains(
          "there is no migration from schema 1 to 2: add SchemaMigration(from: 1, …) to the app's migrations")
        && message.contains("The files are unchanged")
    }
    let after = try Self.files(in: journal)
    #expect(after == before)
  }

  /// A migration that fails (here: its old type does not read the data) is
  /// refused with its step named, and nothing is written.
  @Test func aFailingMigrationIsRefusedUntouched() throws {
    struct Unrelated: Decodable { var shelves: Int }
    let directory = try TemporaryDirectory()
    let options = try Self.schemaOneJournal(in: directory)
    let migration = SchemaMigration(from: 1, state: { (old: Unrelated) in Greeter.Root.State(greetings: old.shelves) })
    #expect {
      try StateRecovery.run(
        options: options, retained: 16, initialState: Greeter.initialState,
        schema: Greeter.Root.Action.actionSchema, appSchema: AppSchema(version: 2, migrations: [migration]),
        build: "greeter-daemon 2.0.0")
    } throws: { error in
      "\(error)".contains("the migration from schema 1 to 2 failed on the state")
    }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path + "/journal").filter {
        $0.hasSuffix(".snapshot")
      } == ["snapshot-00000000000000000000.snapshot"])
  }
}
