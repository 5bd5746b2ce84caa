import JournalTestChild
import TestSupport
import Testing

@testable import Journal

@Suite(.ownThreads) struct JournalDirectoryTests {
  /// One writer at a time, and no recovery under an open writer (it could
  /// take a batch being appended for a torn tail).
  @Test func oneWriterAndNoRecoveryWhileWriting() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let recovered = try journal.recover()
    let writer = try journal.openWriter(after: recovered, epoch: "e")
    #expect(throws: JournalError.self) { try journal.openWriter(after: recovered, epoch: "e") }
    #expect(throws: JournalError.self) { try journal.recover() }
    try writer.append(SampleJournal.records(1...2))
    try writer.close()
    let again = try journal.recover()
    #expect(again.lastVersion == 2)
    let next = try journal.openWriter(after: again, epoch: "e")
    try next.append(SampleJournal.records(3...3))
    try next.close()
  }

  /// The directory is created, with its parent's entry synced; a missing
  /// parent is an error naming the path.
  @Test func creation() throws {
    let directory = try TemporaryDirectory()
    _ = try JournalDirectory(path: directory.journal)
    #expect(Files.exists(directory.journal))
    do {
      _ = try JournalDirectory(path: directory.file("missing/journal"))
      Issue.record("a journal directory was created without its parent")
    } catch {
      #expect(error.description.contains("missing/journal"))
      #expect(error.description.contains("ENOENT"))
    }
  }
}
