import Foundation
import JSON
import Journal
import Testing
import Wire

/// Journals written before each feature's recovery action was reduced by the
/// daemon itself hold the root's `recovered`, sent by the recovery, with the
/// features' recovery actions as its effects: they still recover and read.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct OldRecoveryRecordTests {
  @Test func aJournalHoldingTheRootsRecoveredStillRecoversAndReads() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    for _ in 0..<2 { _ = try client.send(path: "counter.incrementButtonTapped") }
    client.close()
    #expect(daemon.stop() == 0)

    // What the previous daemon journaled after a crash with a fact loading.
    let journalPath = daemon.stateDirectory + "/journal"
    do {
      let journal = try JournalDirectory(path: journalPath)
      let recovered = try journal.recover()
      let writer = try journal.openWriter(after: recovered, epoch: try #require(recovered.epoch))
      _ = try writer.append([
        JournalRecord(
          version: 3, time: 0, origin: .object(["recovery": .bool(true), "origin": .int(1)]),
          action: .object(["recovered": .object([:])]), patch: .array([])),
        JournalRecord(
          version: 4, time: 0, origin: .object(["effect": .bool(true), "origin": .int(1)]),
          action: .object(["counter": .object(["_0": .object(["recovered": .object([:])])])]), patch: .array([])),
      ])
      try writer.close()
    }

    let restarted = try DaemonProcess(reusing: daemon)
    let again = try restarted.client()
    let (version, count) = try again.get(path: "/counter/count")
    // Nothing waits, so the restart reduced nothing more.
    #expect(version == 4 && count == .int(2))
    let log = try again.log(since: 2, last: nil).records
    #expect(log.map(\.summary) == ["recovered", "counter.recovered"])
    #expect(log.first?.origin[path: "recovery"] == .bool(true))
    again.close()
    #expect(restarted.stop() == 0)
  }
}
