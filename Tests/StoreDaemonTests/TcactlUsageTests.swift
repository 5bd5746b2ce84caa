import ComposableCore
import Foundation
import Glibc
import Testing
import Wire

/// The real `tcactl` refusing what it cannot do, against a real daemon that
/// would otherwise have served it: one line saying what is wrong, one saying
/// where help is, exit 2, and nothing sent.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct TcactlUsageTests {
  @Test(
    arguments: [
      (["get", "--at", "-1"], "--at needs a version number (0 or more); got '-1'", "get"),
      (["log", "-n", "0"], "-n needs a count of at least 1; got '0'", "log"),
      (["log", "--fllow"], "unknown option '--fllow' for log; did you mean --follow?", "log"),
      (
        ["stauts"],
        "unknown command 'stauts'; did you mean status? expected one of: send, get, watch, log, what-if, actions, status, stores",
        nil
      ),
      (["status", "now"], "status takes no arguments; got 'now'", "status"),
      (["actions", "cart"], "actions takes no arguments; got 'cart'", "actions"),
      (["log", "5"], "log takes no arguments; got '5'", "log"),
      (["get", "cart", "items"], "get takes at most one state path; got 'cart' 'items'", "get"),
      (["watch", "--at", "1"], "--at does not apply to watch (only to get and what-if)", "watch"),
      (["get", "-f"], "--follow does not apply to get (only to log)", "get"),
      (["status", "--since", "3"], "--since does not apply to status (only to watch and log)", "status"),
      (
        ["send", "counter.incrementButtonTapped", "--timeout", "5"],
        "--timeout applies only with --wait: 'tcactl send PATH --wait --timeout S'", "send"
      ),
      (
        ["send", "counter.incrementButtonTapped", "--full"],
        "--full applies to send only with --wait: without it, send prints only the version", "send"
      ),
      (["log", "--full", "--json"], "--full and --json exclude each other: --json always prints values whole", "log"),
      (
        ["watch", "--epoch", "ab12"],
        "--epoch applies only with --since: it names the line of versions --since's version belongs to", "watch"
      ),
      (["send"], "send needs an action path, e.g. 'tcactl send cart.addItem 3'; 'tcactl actions' lists them", "send"),
      (["--json"], "no command given; expected one of: send, get, watch, log, what-if, actions, status, stores", nil),
      (
        ["help", "frobnicate"],
        "no help for 'frobnicate': it is not a command; expected one of: send, get, watch, log, what-if, actions, status, stores",
        nil
      ),
    ] as [([String], String, String?)])
  func aUsageErrorIsOneLineAndWhereHelpIs(arguments: [String], message: String, command: String?) throws {
    let daemon = try LoopDaemon()
    let result = try tcactl(arguments, socket: daemon.socketPath)
    #expect(result.status == 2)
    #expect(result.output == "")
    let hint = command.map { "run 'tcactl help \($0)' for usage" } ?? "run 'tcactl --help' for usage"
    #expect(result.error == "tcactl: \(message)\n\(hint)\n")
    // Nothing reached the daemon's state.
    #expect(try daemon.client().get().version == 0)
  }

  @Test func helpForACommandIsThatCommandsHelp() throws {
    for command in ["send", "get", "watch", "log", "actions", "status"] {
      let viaHelp = try tcactl(["help", command], socket: "/unused")
      let viaOption = try tcactl([command, "--help"], socket: "/unused")
      let viaShort = try tcactl([command, "-h"], socket: "/unused")
      #expect(viaHelp.status == 0 && viaOption.status == 0 && viaShort.status == 0)
      #expect(viaHelp.output.hasPrefix("usage: tcactl \(command)"), "\(viaHelp.output)")
      #expect(viaOption.output == viaHelp.output && viaShort.output == viaHelp.output)
    }
    let general = try tcactl(["--help"], socket: "/unused")
    #expect(
      general.status == 0
        && general.output.hasPrefix("usage: tcactl [--socket PATH | --app NAME] [--store NAME] <command>"))
    #expect(try tcactl(["help"], socket: "/unused").output == general.output)
    // Help wins over a mistake on the same line, so that adding --help shows how to fix it.
    #expect(
      try tcactl(["log", "-n", "0", "--help"], socket: "/unused").output
        == (try tcactl(["help", "log"], socket: "/unused")).output)
  }

  @Test func optionsMayBeWrittenWithEqualsAndArgumentsMayStartWithADash() throws {
    let daemon = try LoopDaemon()
    for _ in 1...2 { _ = try tcactl(["send", "counter.incrementButtonTapped"], socket: daemon.socketPath) }
    #expect(try tcactl(["get", "counter.count", "--at=1"], socket: daemon.socketPath).output == "1\n")
    // A word after send's path starting with `-` is a value; after `--`, any word is.
    let dashed = try tcactl(["send", "search.textChanged", "-cats"], socket: daemon.socketPath)
    #expect(dashed.status == 0, "\(dashed.error)")
    #expect(try daemon.client().get(path: "/search/text").value == .string("-cats"))
    #expect(try tcactl(["send", "search.textChanged", "--", "--dogs"], socket: daemon.socketPath).status == 0)
    #expect(try daemon.client().get(path: "/search/text").value == .string("--dogs"))
  }
}
