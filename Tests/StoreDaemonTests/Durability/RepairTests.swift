import ComposableCore
import Foundation
import Glibc
import JSON
import Journal
import Testing
import Wire

/// Records whose checksum is valid but which the state cannot be rebuilt
/// with: the start is refused naming the segment and the byte, and
/// `--repair` always leads to a daemon that starts, with the dropped bytes
/// kept aside.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct RepairTests {
  /// What a bad record's patch does to version 20's state.
  enum BadPatch: String, CaseIterable {
    /// It replaces a member that does not exist.
    case doesNotApply
    /// It gives `counter.count` text, which `Int` cannot decode.
    case givesTheWrongType

    var patch: JSONValue {
      switch self {
      case .doesNotApply:
        .array([.object(["op": .string("replace"), "path": .string("/counter/nothing/here"), "value": .int(1)])])
      case .givesTheWrongType:
        .array([.object(["op": .string("replace"), "path": .string("/counter/count"), "value": .string("many")])])
      }
    }

    var problem: String {
      switch self {
      case .doesNotApply: "its patch does not apply to the state before it"
      case .givesTheWrongType: "the state after it does not decode at counter.count"
      }
    }
  }

  @Test(arguments: BadPatch.allCases)
  func aRecordTheStateCannotUseIsNamedAndRepairSetsItAside(_ bad: BadPatch) throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    for _ in 0..<20 { _ = try client.send(path: "counter.incrementButtonTapped") }
    client.close()
    #expect(daemon.stop() == 0)

    // Version 21 is the bad record; version 22 after it changes nothing.
    let journalPath = daemon.stateDirectory + "/journal"
    let segment = try JournalFiles.lastSegment(in: journalPath)
    let offset = try #require(try FileManager.default.attributesOfItem(atPath: segment)[.size] as? Int)
    do {
      let journal = try JournalDirectory(path: journalPath)
      let recovered = try journal.recover()
      let writer = try journal.openWriter(after: recovered, epoch: try #require(recovered.epoch))
      let origin: JSONValue = .object(["client": .string("test")])
      let action: JSONValue = .object(["counter": .string("incrementButtonTapped")])
      _ = try writer.append([
        JournalRecord(version: 21, time: 0, origin: origin, action: action, patch: bad.patch),
        JournalRecord(version: 22, time: 0, origin: origin, action: action, patch: .array([])),
      ])
      try writer.close()
    }
    #expect(try JournalFiles.lastSegment(in: journalPath) == segment)
    let written = try Data(contentsOf: URL(fileURLWithPath: segment))
    let before = try JournalFiles.contents(of: journalPath)

    #expect {
      try DaemonProcess(reusing: daemon)
    } throws: { error in
      let text = "\(error)"
      return text.contains("status 65")
        && text.contains("the record of version 21 at byte \(offset) of \(segment) cannot be used: \(bad.problem)")
        && text.contains("intact up to version 20") && text.contains("--repair") && !text.contains(".snapshot")
    }
    #expect(try JournalFiles.contents(of: journalPath) == before, "a refused start changes no file")

    let repaired = try DaemonProcess(reusing: daemon, arguments: ["--repair"])
    let (version, count) = try repaired.client().get(path: "/counter/count")
    #expect(version == 20 && count == .int(20))
    let aside = segment + ".damaged-\(offset)"
    #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == written.subdata(in: offset..<written.count))
    #expect(repaired.standardError.contains("repair: dropped"), "\(repaired.standardError)")
    #expect(repaired.standardError.contains(aside), "\(repaired.standardError)")
    // It serves on from version 20, and starts again without --repair.
    #expect(try repaired.client().send(path: "counter.incrementButtonTapped") == 21)
    #expect(repaired.stop() == 0)
    let again = try DaemonProcess(reusing: repaired)
    #expect(try again.client().get(path: "/counter/count").value == .int(21))
  }
}
