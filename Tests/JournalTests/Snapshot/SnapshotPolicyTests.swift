import Testing

@testable import Journal

@Suite struct SnapshotPolicyTests {
  func progress(records: UInt64, bytes: Int, snapshotBytes: Int = 0) -> JournalProgress {
    JournalProgress(
      lastVersion: 1000 + records, durableVersion: 1000 + records, snapshotVersion: 1000,
      snapshotBytes: snapshotBytes, bytesSinceSnapshot: bytes)
  }

  @Test func bySize() {
    let policy = SnapshotPolicy(journalBytes: 1000, records: nil)
    #expect(!policy.shouldSnapshot(progress(records: 5, bytes: 999)))
    #expect(policy.shouldSnapshot(progress(records: 5, bytes: 1000)))
  }

  @Test func byCount() {
    let policy = SnapshotPolicy(journalBytes: nil, records: 10)
    #expect(!policy.shouldSnapshot(progress(records: 9, bytes: 50)))
    #expect(policy.shouldSnapshot(progress(records: 10, bytes: 50)))
  }

  /// A large state is not rewritten for a journal smaller than it.
  @Test func heldBackByTheSnapshotsSize() {
    let policy = SnapshotPolicy(journalBytes: 1000, records: 10, minimumRatioToSnapshot: 1.0)
    #expect(!policy.shouldSnapshot(progress(records: 50, bytes: 4000, snapshotBytes: 10_000)))
    #expect(policy.shouldSnapshot(progress(records: 50, bytes: 10_000, snapshotBytes: 10_000)))
  }

  @Test func neverAndNothingNew() {
    #expect(!SnapshotPolicy.never.shouldSnapshot(progress(records: 1 << 40, bytes: 1 << 40)))
    #expect(!SnapshotPolicy(journalBytes: 0, records: 0).shouldSnapshot(progress(records: 0, bytes: 0)))
    #expect(SnapshotPolicy.standard.journalBytes == 64 << 20)
  }

  @Test func recordsSinceSnapshot() {
    #expect(progress(records: 7, bytes: 0).recordsSinceSnapshot == 7)
    let none = JournalProgress(
      lastVersion: 5, durableVersion: 5, snapshotVersion: nil, snapshotBytes: 0, bytesSinceSnapshot: 9)
    #expect(none.recordsSinceSnapshot == 5)
  }
}
