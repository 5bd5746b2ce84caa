import Foundation
import JSON
import Testing
import Wire

/// A state directory written by storedaemon at 4422e0c (journal format 1,
/// enums in Foundation's shape; `Tests/Fixtures/README.md` says how it was
/// made) recovers under this build: the state, the log and past states are
/// served in today's JSON, and new actions go to a format 2 segment that
/// survives a restart (docs/DURABILITY.md, "Format versions").
@Suite(.serialized, .timeLimit(.minutes(5))) struct JournalCompatibilityTests {
  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/state-4422e0c").path
  /// Nothing listens on port 9: no effect reaches the network.
  static let arguments = [
    "--store-api", "http://127.0.0.1:9", "--numbers-api", "http://127.0.0.1:9", "--dice-roll", "0",
  ]
  /// The last version the fixture's journal holds.
  static let lastVersion: UInt64 = 23

  @Test func aFormat1StateDirectoryRecoversAndContinuesInFormat2() throws {
    let daemon = try DaemonProcess(copyingState: Self.fixture, arguments: Self.arguments)
    let client = try daemon.client()

    // The state, in today's shape.
    let (version, state) = try client.get()
    #expect(version == Self.lastVersion)
    #expect(state[path: "counter", "count"] == .int(2))
    #expect(state[path: "dice", "rollHistory"] == .array([.int(5), .int(6)]))
    #expect(state[path: "bmi", "selectedTab"] == .string("History"))
    guard case .object(let saved)? = state[path: "bmi", "input", "saveStatus"], saved.count == 1,
      case .object(let record)? = saved["saved"]
    else {
      Issue.record(
        "saveStatus is not {\"saved\":{…}}: \(String(describing: state[path: "bmi", "input", "saveStatus"]))")
      return
    }
    #expect(record["height"] == .int(180))
    guard case .object(let failed)? = state[path: "products", "status"], case .string(let reason)? = failed["failed"]
    else {
      Issue.record("products.status is not {\"failed\":…}: \(String(describing: state[path: "products", "status"]))")
      return
    }
    #expect(reason.contains("127.0.0.1:9"))
    #expect(try client.get(path: "/bmi/input/saveStatus/saved/height").value == .int(180))

    // Past states, upgraded from format 1.
    #expect(try client.get(path: "/bmi/input/saveStatus", at: 1).value == .string("idle"))
    #expect(try client.get(path: "/bmi/input/saveStatus", at: 13).value == .string("saving"))
    #expect(try client.get(path: "/bmi/input/saveStatus/saved/height", at: 14).value == .int(180))
    #expect(try client.get(path: "/products/status", at: 20).value == .string("loading"))

    // The log: every record, its action in today's shape and its command line.
    let log = try client.log(since: nil, last: nil)
    #expect(log.records.map(\.version) == Array(1...Self.lastVersion))
    let addItem = try #require(log.records.first { $0.summary == "cart.addItem 3" })
    #expect(addItem.action == .object(["cart": .object(["addItem": .int(3)])]))
    #expect(log.records.first?.summary == "tabSelected dice")
    #expect(log.records.contains { $0.action == .object(["dice": .object(["view": .string("rollButtonTapped")])]) })

    // A new action is journaled in format 2, in a segment of its own, after
    // a format 2 snapshot of the recovered state.
    #expect(try client.send(path: "counter.incrementButtonTapped") == Self.lastVersion + 1)
    let journal = daemon.stateDirectory + "/journal"
    let files = try FileManager.default.contentsOfDirectory(atPath: journal).sorted()
    #expect(files.contains("00000000000000000001.journal"), "the format 1 segment is kept: \(files)")
    let newSegment = String(format: "%020d.journal", Self.lastVersion + 1)
    #expect(files.contains(newSegment), "\(files)")
    let segmentBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: journal + "/" + newSegment)))
    #expect(segmentBytes.count > 12 && segmentBytes[11] == 2, "segment format")
    let snapshot = try String(
      contentsOfFile: journal + "/" + String(format: "snapshot-%020d.snapshot", Self.lastVersion), encoding: .utf8)
    #expect(snapshot.contains(#""format":2"#))
    #expect(snapshot.contains(#""saveStatus":{"saved":{"#))
    client.close()
    #expect(daemon.stop() == 0)

    // It all survives another restart.
    let restarted = try DaemonProcess(reusing: daemon, arguments: Self.arguments)
    let again = try restarted.client()
    let (after, count) = try again.get(path: "/counter/count")
    #expect(after == Self.lastVersion + 1)
    #expect(count == .int(3))
    #expect(try again.get(path: "/bmi/input/saveStatus", at: 1).value == .string("idle"))
    let tail = try again.log(since: Self.lastVersion - 1, last: nil)
    #expect(tail.records.map(\.version) == [Self.lastVersion, Self.lastVersion + 1])
    #expect(tail.records.last?.action == .object(["counter": .string("incrementButtonTapped")]))
    #expect(tail.records.last?.summary == "counter.incrementButtonTapped")
  }
}
