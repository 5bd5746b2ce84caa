import Foundation
import Glibc
import JSON
import JournalTestChild
import TestSupport
import Testing

@testable import Journal

/// Running out of space rejects one batch, leaves the journal valid, and the
/// writer resumes once there is room: with a real file size limit in a child
/// process, and with a really full file system where one can be mounted.
@Suite(.ownThreads) struct NoSpaceTests {
  /// RLIMIT_FSIZE in a child process (SIGXFSZ ignored, so writes past the
  /// limit fail with EFBIG): the batch that crosses the limit is rejected as
  /// `noSpace` (writer still usable), so is the next, and once the limit is
  /// raised the same batch is written. The journal recovers exactly the
  /// accepted records.
  @Test func fileSizeLimit() throws {
    let directory = try TemporaryDirectory()
    let child = try ChildProcess(["fill", directory.journal, "65536"])
    let (status, lines) = child.finish()
    #expect(status == 0)
    let steps = try lines.map { line -> JSONObject in
      guard case .object(let members) = try JSONParser.parse(Array(line.utf8)) else { throw TestFailure(line) }
      return members
    }
    try #require(steps.count == 3, "child said: \(lines)")
    #expect(steps[0]["kind"] == .string("noSpace"))
    #expect(steps[0]["usable"] == .bool(true))
    #expect(steps[0]["message"].map { "\($0)".contains("EFBIG") } == true)
    #expect(steps[1]["kind"] == .string("noSpace"), "the writer must not have entered the failed state")
    #expect(steps[2]["kind"] == .string("ok"))
    guard case .int(let full)? = steps[0]["lastAppended"], case .int(let last)? = steps[2]["lastAppended"] else {
      throw TestFailure("no versions in \(lines)")
    }
    #expect(last == full + 10)

    let (recovered, records) = try Journals.recover(directory.journal)
    #expect(recovered.report.events.isEmpty, "the journal must be valid without cutting anything")
    #expect(records == SampleJournal.records(1...UInt64(last)))
  }

  /// A real ENOSPC on a 512 KiB tmpfs, filled with another file: the append
  /// is rejected, the journal stays valid, and after the filler is removed
  /// appends succeed again. Runs only where mounting is allowed.
  @Test(.enabled(if: Tmpfs.canMount)) func fullFileSystem() throws {
    let directory = try TemporaryDirectory()
    let mount = directory.file("mnt")
    try Tmpfs.mount(at: mount, kilobytes: 512)
    defer { Tmpfs.unmount(mount) }
    let journalPath = mount + "/journal"
    let journal = try JournalDirectory(path: journalPath)
    let writer = try journal.openWriter(after: try journal.recover(), epoch: "e")
    try writer.append(SampleJournal.records(1...10))
    // Fill the rest of the file system.
    let filler = mount + "/filler"
    let fd = open(filler, O_WRONLY | O_CREAT, 0o600)
    let block = [UInt8](repeating: 7, count: 4096)
    while write(fd, block, block.count) > 0 {}
    close(fd)

    var next: UInt64 = 11
    var rejection: JournalWriteError?
    for _ in 0..<10_000 where rejection == nil {
      do {
        try writer.append(SampleJournal.records(next...next + 49))
        next += 50
      } catch {
        rejection = error
      }
    }
    guard case .noSpace(_, _, let failure, let versions)? = rejection else {
      Issue.record("expected noSpace, got \(String(describing: rejection))")
      return
    }
    #expect(failure.code == ENOSPC)
    #expect(versions == next...next + 49)
    #expect(writer.failure == nil)

    unlink(filler)
    try writer.append(SampleJournal.records(next...next + 49))
    try writer.close()
    let recovered = try journal.recover()
    let records = try recovered.records.map { try $0.decoded() }
    #expect(recovered.report.events.isEmpty)
    #expect(records == SampleJournal.records(1...next + 49))
  }
}

/// Mounting a small tmpfs, where the test runs as a user allowed to.
enum Tmpfs {
  static let canMount: Bool = {
    guard let directory = try? TemporaryDirectory() else { return false }
    let path = directory.file("probe")
    guard (try? mount(at: path, kilobytes: 64)) != nil else { return false }
    unmount(path)
    return true
  }()

  static func mount(at path: String, kilobytes: Int) throws {
    guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw TestFailure("mkdir \(path): errno \(errno)") }
    guard Glibc.mount("tmpfs", path, "tmpfs", 0, "size=\(kilobytes)k,mode=0700") == 0 else {
      throw TestFailure("mount tmpfs at \(path): errno \(errno)")
    }
  }

  static func unmount(_ path: String) {
    umount2(path, Int32(MNT_DETACH))
  }
}
