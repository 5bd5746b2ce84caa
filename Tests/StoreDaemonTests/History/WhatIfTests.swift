import Foundation
import JSON
import Testing
import Wire

/// `tcactl what-if`: the state at a version as it would be without an
/// earlier action, or with another in its place, shown against the
/// recorded state; the daemon's own state is not touched (docs/CLI.md).
@Suite(.serialized, .timeLimit(.minutes(5))) struct WhatIfTests {
  /// Versions 1…3 count to 3; 4 opens the settings, 5 names the user, 6
  /// counts to 4.
  static func daemon() throws -> LoopDaemon {
    let daemon = try LoopDaemon(arguments: VerifyTests.arguments)
    let client = try daemon.client()
    for _ in 1...3 { _ = try client.send(path: "counter.incrementButtonTapped") }
    #expect(try client.send(path: "parent.settingsButtonTapped") == 4)
    #expect(try client.send(path: "parent.settings.presented.binding.displayName", arguments: ["Ada"]) == 5)
    #expect(try client.send(path: "counter.incrementButtonTapped") == 6)
    return daemon
  }

  @Test func anActionLeftOutOrReplacedShowsWhatWouldDiffer() throws {
    let daemon = try Self.daemon()
    let socket = daemon.socketPath

    let without = try tcactl(["what-if", "--without", "2"], socket: socket)
    #expect(without.status == 0, "\(without.error)")
    #expect(
      without.output == """
        the state at version 6 without version 2 (recorded → would be):
            ~ /counter/count: 4 → 3

        """)

    let replaced = try tcactl(["what-if", "--replace", "2", "counter.decrementButtonTapped"], socket: socket)
    #expect(replaced.output.contains("with counter.decrementButtonTapped as version 2 (recorded → would be):"))
    #expect(replaced.output.contains("~ /counter/count: 4 → 2"), "\(replaced.output)")

    let earlier = try tcactl(["what-if", "--without", "1", "--at", "2"], socket: socket)
    #expect(earlier.output.contains("the state at version 2 without version 1"), "\(earlier.output)")
    #expect(earlier.output.contains("~ /counter/count: 2 → 1"), "\(earlier.output)")

    let same = try tcactl(
      ["what-if", "--replace", "3", "counter.incrementButtonTapped", "--at", "3"], socket: socket)
    #expect(
      same.output == "the state at version 3 would be the same with counter.incrementButtonTapped as version 3\n")

    let json = try tcactl(["what-if", "--without", "2", "--json"], socket: socket)
    let answer = try JSONParser.parse(Array(json.output.utf8))
    #expect(answer[path: "version"] == .int(6) && answer[path: "edited"] == .int(2))
    #expect(
      answer[path: "patch"]
        == .array([.object(["op": .string("replace"), "path": .string("/counter/count"), "value": .int(3)])]))
    #expect(answer[path: "recorded", "counter", "count"] == .int(4))

    // Nothing was applied.
    let (version, state) = try daemon.client().get()
    #expect(version == 6 && state[path: "counter", "count"] == .int(4))
  }

  /// Without the settings screen, the name typed into it goes nowhere: the
  /// replay says so.
  @Test func whatTheReplayMetIsNoted() throws {
    let daemon = try Self.daemon()
    let result = try tcactl(["what-if", "--without", "4"], socket: daemon.socketPath)
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.contains("~ /parent/settings: {") && result.output.contains("→ null\n"), "\(result.output)")
    #expect(result.output.contains("version 5: the reducer dropped it: "), "\(result.output)")
  }

  @Test func aWhatIfOutsideTheHistoryIsRefusedWithWhatFits() throws {
    let daemon = try Self.daemon()
    let socket = daemon.socketPath
    let beyond = try tcactl(["what-if", "--without", "9"], socket: socket)
    #expect(beyond.status == 1)
    #expect(
      beyond.error.contains(
        "the state at version 6 cannot show version 9 changed: give a version from 1 through 6 to leave out or replace"),
      "\(beyond.error)")
    let future = try tcactl(["what-if", "--without", "2", "--at", "60"], socket: socket)
    #expect(future.status == 1 && future.error.contains("version 60 has not been reached"), "\(future.error)")
    let unknown = try tcactl(["what-if", "--replace", "2", "counter.explode"], socket: socket)
    #expect(unknown.status == 1 && unknown.error.contains("counter.explode"), "\(unknown.error)")
    let both = try tcactl(
      ["what-if", "--without", "2", "--replace", "3", "counter.incrementButtonTapped"], socket: socket)
    #expect(both.status == 2 && both.error.contains("--without and --replace exclude each other"))
    let neither = try tcactl(["what-if"], socket: socket)
    #expect(neither.status == 2 && neither.error.contains("what-if needs --without N"))
  }
}
