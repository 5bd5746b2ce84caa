import Foundation
import Glibc
import JournalTestChild
import TestSupport
import Testing

@testable import Journal

/// A child process appending in a loop is killed with SIGKILL: recovery gives
/// a contiguous prefix of what it wrote, holding at least every version it
/// reported durable.
@Suite(.ownThreads) struct CrashTests {
  @Test(arguments: [(maximumBatch: 1, snapshotEvery: 0), (40, 0), (40, 250), (400, 300)])
  func killedWhileAppending(maximumBatch: Int, snapshotEvery: Int) throws {
    let directory = try TemporaryDirectory()
    let durableLog = directory.file("durable")
    var lastDurable: UInt64 = 0
    // Where the life begins: the version its child recovers, and how many
    // versions the lives before it reported durable.
    var startVersion: UInt64 = 0
    var reportedBefore = 0
    // Three lives: each restart recovers the previous one's journal and goes on.
    for life in 1...3 {
      let child = try ChildProcess([
        "append-until-killed", directory.journal, durableLog, "\(maximumBatch)", "\(snapshotEvery)",
      ])
      let target = lastDurable + 300
      let reached = waitUntil(seconds: 60) { ((try? Self.durableVersions(durableLog))?.last ?? 0) >= target }
      try #require(reached, "life \(life): the child did not reach version \(target)")
      usleep(UInt32.random(in: 0...20_000))
      child.kill()
      #expect(child.process.terminationReason == .uncaughtSignal)

      let durable = try Self.durableVersions(durableLog)
      lastDurable = durable.last ?? 0
      let (recovered, records) = try Journals.recover(directory.journal)
      let base = recovered.snapshot?.version ?? 0
      #expect(recovered.lastVersion >= lastDurable, "life \(life): a version reported durable is missing")
      #expect(records.count == Int(recovered.lastVersion - base))
      if recovered.lastVersion > base {
        #expect(records == SampleJournal.records(base + 1...recovered.lastVersion))
      }
      #expect(
        try recovered.replay(initialState: SampleJournal.initialState) == SampleJournal.state(at: recovered.lastVersion)
      )
      for event in recovered.report.events {
        switch event {
        case .tornTailCut(let tail):
          #expect(Files.exists(tail.savedTo))
        case .supersededSegment, .interruptedFile, .setAsideFile:
          break
        case .damageMovedAside, .snapshotMovedAside:
          Issue.record("life \(life): unexpected \(event)")
        }
      }
      // The child writes a snapshot after a batch that passes a multiple of
      // `snapshotEvery` is reported durable, and before it appends the
      // next: a batch of the same life reported after it proves the
      // snapshot is on disk. (The kill may come between a batch's report
      // and its snapshot, and the next life does not make up for it: its
      // child counts multiples from the version it recovered.)
      if snapshotEvery > 0 {
        let every = UInt64(snapshotEvery)
        let passed = (reportedBefore..<max(reportedBefore, durable.count - 1)).contains { index in
          let previous = index == reportedBefore ? startVersion : durable[index - 1]
          return durable[index] / every != previous / every
        }
        if passed {
          #expect(
            recovered.snapshot != nil,
            "life \(life): versions reported durable: \(durable), of this life from \(reportedBefore)")
        }
      }
      startVersion = recovered.lastVersion
      reportedBefore = durable.count
    }
  }

  /// The versions the child reported durable, in order (a last line cut
  /// short by the kill is ignored).
  static func durableVersions(_ path: String) throws -> [UInt64] {
    guard Files.exists(path) else { return [] }
    let text = String(decoding: try Files.read(path), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    lines.removeLast()  // after the last line feed: empty, or a line cut short
    return lines.compactMap { UInt64($0) }
  }
}
