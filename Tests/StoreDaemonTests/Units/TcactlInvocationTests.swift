import Platform
import Testing
import Wire

@testable import tcactl

/// `tcactl`'s command line on its own: each command takes exactly the options
/// and words docs/CLI.md lists, and the one cutting rule (the end-to-end tests
/// are TcactlUsageTests and TcactlChangesTests).
@Suite struct TcactlInvocationTests {
  /// An option with a value that fits it, for trying it on every command.
  static func words(for option: Option) -> [String] {
    switch option {
    case .socket: ["--socket", "/s"]
    case .app: ["--app", "todosd"]
    case .daemonUser: ["--daemon-user", "0"]
    case .tokenFile: ["--token-file", "/t"]
    case .store: ["--store", "user-7"]
    case .since: ["--since", "1"]
    case .at: ["--at", "1"]
    case .last: ["-n", "1"]
    case .epoch: ["--epoch", "e", "--since", "1"]
    case .timeout: ["--timeout", "1", "--wait"]
    case .full: ["--full", "--wait"]
    case .json: ["--json"]
    case .follow: ["-f"]
    case .wait: ["--wait"]
    case .all: ["--all"]
    case .without: ["--without", "1"]
    case .replace: ["--replace", "1", "counter.incrementButtonTapped"]
    case .help: ["--help"]
    case .version: ["--version"]
    }
  }

  /// The command line of `command` that `option` is tried on.
  static func base(_ command: Command, for option: Option) -> [String] {
    switch command {
    case .send: ["send", "counter.incrementButtonTapped"]
    case .whatIf where option == .without || option == .replace: ["what-if"]
    case .whatIf: ["what-if", "--without", "1"]
    default: [command.rawValue]
    }
  }

  @Test(arguments: Command.daemonCommands)
  func aCommandTakesItsOwnOptionsAndRefusesTheOthers(command: Command) throws {
    for option in Option.allCases where option != .help {
      let base = Self.base(command, for: option)
      // After send's path, `-n` and `-f` are arguments (values may start with `-`).
      if command == .send && (option == .last || option == .follow) { continue }
      var arguments = base + Self.words(for: option)
      if command != .send && option != .wait { arguments.removeAll { $0 == "--wait" } }
      if command.options.contains(option) {
        #expect(throws: Never.self, "\(arguments)") { try Invocation.parse(arguments, environment: [:]) }
      } else {
        #expect("\(arguments)") {
          try Invocation.parse(arguments, environment: [:])
        } throws: { error in
          (error as? UsageError)?.command == command
        }
      }
    }
  }

  @Test func optionsGoAnywhereAndTakeTheirValueEitherWay() throws {
    let invocation = try Invocation.parse(["--socket=/s", "log", "-n", "3", "--since=7", "-f"], environment: [:])
    #expect(invocation.command == .log && invocation.socketPath == "/s")
    #expect(invocation.last == 3 && invocation.since == 7 && invocation.follow)
    let send = try Invocation.parse(
      ["send", "--wait", "search.textChanged", "-x", "--", "--y"], environment: ["TCA_SOCKET": "/t"])
    #expect(send.words == ["search.textChanged", "-x", "--y"] && send.wait && send.socketPath == "/t")
  }

  /// The daemon's user comes from `--daemon-user`, else `TCA_DAEMON_USER`;
  /// a value naming no user is refused only by a line that would connect.
  @Test func theDaemonUserComesFromTheOptionElseTheEnvironment() throws {
    let root = DaemonUser(user: "0")
    #expect(try Invocation.parse(["status", "--daemon-user", "root"], environment: [:]).daemonUser == root)
    #expect(try Invocation.parse(["status"], environment: ["TCA_DAEMON_USER": "0"]).daemonUser == root)
    #expect(try Invocation.parse(["status"], environment: [:]).daemonUser == nil)
    let unknown = ["TCA_DAEMON_USER": "no-such-user-here"]
    #expect {
      try Invocation.parse(["status"], environment: unknown)
    } throws: { error in
      (error as? UsageError)?.hint == "run 'tcactl help status' for usage"
    }
    _ = try Invocation.parse(["status", "--help"], environment: unknown)
    _ = try Invocation.parse(["version"], environment: unknown)
  }

  @Test func theFirstMistakeIsReportedAndNamesTheCommandItCameWith() {
    #expect {
      try Invocation.parse(["--fllow", "log", "status"], environment: [:])
    } throws: { error in
      let error = error as? UsageError
      return error?.description == "unknown option '--fllow'; did you mean --follow?" && error?.command == .log
        && error?.hint == "run 'tcactl help log' for usage"
    }
    #expect {
      try Invocation.parse(["--at", "1", "--at", "2", "get"], environment: [:])
    } throws: { error in
      (error as? UsageError)?.description == "--at is given twice; give it once"
    }
  }

  @Test(arguments: [
    ("short", "short"),
    (String(repeating: "a", count: 60), String(repeating: "a", count: 60)),
    (String(repeating: "a", count: 61), String(repeating: "a", count: 59) + "…"),
  ])
  func valuesLongerThanTheWidthAreCut(text: String, shown: String) {
    #expect(ValueText.cut(text, full: false) == shown)
    #expect(ValueText.cut(text, full: true) == text)
  }

  @Test func nearestWordSuggestsOnlyCloseOnes() {
    #expect(NearestWord.nearest(to: "stauts", among: ["status", "send"]) == "status")
    #expect(NearestWord.nearest(to: "xyz", among: ["status", "send"]) == nil)
  }
}
