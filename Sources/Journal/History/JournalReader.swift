import Glibc
import JSON
import Platform

/// Reads history from the retained journal while the daemon runs: records by
/// version (for `tcactl log`) and past states (for `tcactl get --at V`).
///
/// The reader only reads files, so it runs on any thread alongside the
/// writer; it does not take the directory's lock. Every call is given the
/// last version to consider, `through` — the daemon passes its last durable,
/// published version — so a batch being appended at that moment is never
/// read half-written, and the reader never shows a version clients have not
/// been shown. Each call reads the segments it needs from disk (the newest
/// one whole, as records have no backward index), so it costs up to a
/// segment's size (64 MiB by default) of reading: fine for a person at a
/// terminal, not for a hot path.
///
/// Following new records (`tcactl log --follow`) is left to the daemon: it
/// sends the history from here, then the records it publishes as they are
/// reduced, which it already has in memory.
public struct JournalReader: Sendable {
  /// The journal directory.
  public let directory: String
  /// How records and states kept in an older format are shown in the
  /// current one; without it they are given as recorded.
  public let upgrade: JournalUpgrade?

  public init(directory: String, upgrade: JournalUpgrade? = nil) {
    self.directory = directory
    self.upgrade = upgrade
  }

  /// This reader, showing what older formats keep through `upgrade`.
  public func upgrading(_ upgrade: JournalUpgrade) -> JournalReader {
    JournalReader(directory: directory, upgrade: upgrade)
  }

  /// The record of `entry`, its action in the current format when it was
  /// kept in an older one and ``upgrade`` reads it (its patch stays as
  /// recorded: its paths are those of the state as it was then).
  private func record(_ entry: JournalEntry) throws(JournalError) -> JournalRecord {
    var record = try entry.decoded()
    if entry.format < JournalFormat.current, let upgrade, let action = try? upgrade.action(record.action) {
      record.action = action
    }
    return record
  }

  /// The records of versions `first` through `last` (at most `limit`, the
  /// oldest first).
  ///
  /// - Throws: ``JournalError/versionNotRetained(requested:oldestRetained:)``
  ///   if `first` was compacted away; ``JournalError/versionNotWritten(requested:last:)``
  ///   if `last` is beyond the journal; ``JournalError/damaged(_:)`` if a
  ///   record in the range cannot be read.
  public func records(from first: UInt64, through last: UInt64, limit: Int = .max) throws(JournalError)
    -> [JournalRecord]
  {
    guard first <= last, limit > 0 else { return [] }
    let (end, overflow) = first.addingReportingOverflow(UInt64(limit) - 1)
    let entries = try retrying { () throws(JournalError) in
      try self.entries(from: first, through: overflow ? last : min(last, end))
    }
    return try entries.map { entry throws(JournalError) in try record(entry) }
  }

  /// The last `count` records up to version `last`, the oldest first (fewer
  /// if the journal retains fewer).
  public func lastRecords(_ count: Int, through last: UInt64) throws(JournalError) -> [JournalRecord] {
    guard count > 0, last > 0 else { return [] }
    let entries = try retrying { () throws(JournalError) in
      let oldest = try self.oldestRetainedVersion() ?? 1
      let first = max(oldest, last >= UInt64(count) ? last - UInt64(count) + 1 : 1)
      return try self.entries(from: first, through: last)
    }
    return try entries.map { entry throws(JournalError) in try record(entry) }
  }

  /// The oldest version whose record the journal holds, or `nil` if it holds
  /// none.
  public func oldestRetainedVersion() throws(JournalError) -> UInt64? {
    try contents().segments.first?.firstVersion
  }

  /// The state at `version`: the newest snapshot at or before it, with the
  /// patches of the records after it applied up to `version`; in the current
  /// format through ``upgrade`` when the snapshot is of an older one.
  ///
  /// - Parameter initialState: the app's state at version 0, used when no
  ///   snapshot precedes `version` and the journal starts at version 1.
  /// - Throws: ``JournalError/versionNotRetained(requested:oldestRetained:)``
  ///   if no retained snapshot precedes it (older ones were compacted);
  ///   ``JournalError/versionNotWritten(requested:last:)``; an unreadable
  ///   snapshot; or a patch that does not apply.
  public func state(at version: UInt64, initialState: JSONValue) throws(JournalError) -> JSONValue {
    try retrying { () throws(JournalError) -> JSONValue in
      let contents = try self.contents()
      var base: (version: UInt64, state: JSONValue, format: UInt32)
      if let snapshot = contents.snapshots.first(where: { $0.version <= version }) {
        let read = try SnapshotFile.read(path: snapshot.path, version: snapshot.version)
        base = (read.version, read.state, read.format)
      } else if contents.segments.first?.firstVersion == 1 || (contents.segments.isEmpty && contents.snapshots.isEmpty)
      {
        base = (0, initialState, JournalFormat.current)
      } else {
        let oldest = contents.snapshots.last?.version ?? contents.segments.first?.firstVersion
        throw .versionNotRetained(requested: version, oldestRetained: oldest)
      }
      var state = base.state
      if version > base.version {
        state = try Replay.apply(try self.entries(from: base.version + 1, through: version), to: base.state)
      }
      // The records after a snapshot are in its format (the daemon writes
      // a snapshot in the new format before any record in it).
      guard base.format < JournalFormat.current, let upgrade, let upgraded = try? upgrade.state(state) else {
        return state
      }
      return upgraded
    }
  }

  /// The whole retained journal, for replaying it: the oldest snapshot
  /// that the retained records continue from (none only when there is none
  /// and they start at version 1: the daemon writes one at version 0, so
  /// that the state they start from is the one recorded), and every record
  /// after it through the last one written whole. Reads only: safe beside
  /// the daemon writing.
  ///
  /// - Throws: ``JournalError/versionNotRetained(requested:oldestRetained:)``
  ///   if no snapshot precedes the oldest record; an unreadable snapshot;
  ///   damage before the newest segment's end.
  public func retained() throws(JournalError) -> RetainedJournal {
    try retrying { () throws(JournalError) -> RetainedJournal in
      let contents = try self.contents()
      let firstRecord = contents.segments.first?.firstVersion
      // Snapshots are newest first: the last that the records continue.
      let base = contents.snapshots.last { snapshot in firstRecord.map { snapshot.version + 1 >= $0 } ?? true }
      if base == nil, let firstRecord, firstRecord > 1 {
        throw .versionNotRetained(requested: firstRecord - 1, oldestRetained: firstRecord)
      }
      let snapshot = try base.map { base throws(JournalError) in
        try SnapshotFile.read(path: base.path, version: base.version)
      }
      let records = try self.entries(from: (snapshot?.version ?? 0) + 1, through: nil)
      return RetainedJournal(snapshot: snapshot, records: records)
    }
  }

  /// The journal's last version and its record, reading no more than its
  /// two newest segments (the newest may have just been started): what a
  /// listing of many stores can afford for each. The record is nil when
  /// they hold none (a snapshot was just written, or nothing ever was); the
  /// version is then the snapshot's, or 0.
  public func newest() throws(JournalError) -> (version: UInt64, record: JournalRecord?) {
    try retrying { () throws(JournalError) -> (version: UInt64, record: JournalRecord?) in
      let contents = try self.contents()
      let snapshot = contents.snapshots.map(\.version).max() ?? 0
      for segment in contents.segments.suffix(2).reversed() {
        if let entry = try self.entries(from: segment.firstVersion, through: nil).last {
          return (entry.version, try record(entry))
        }
      }
      let beforeNewest = contents.segments.last.map { $0.firstVersion > 0 ? $0.firstVersion - 1 : 0 } ?? 0
      return (max(snapshot, beforeNewest), nil)
    }
  }

  // MARK: Reading segments

  private func contents() throws(JournalError) -> DirectoryContents {
    do {
      return try DirectoryContents(directory: directory)
    } catch {
      throw .system(error)
    }
  }

  /// Runs `body` again once if a file vanished under it (a compaction
  /// removed a segment between the listing and the read).
  private func retrying<T>(_ body: () throws(JournalError) -> T) throws(JournalError) -> T {
    do {
      return try body()
    } catch .system(let failure) where failure.code == ENOENT {
      return try body()
    }
  }

  /// The entries of versions `first` through `last`, all present and
  /// contiguous; with `last` nil, through the last record written whole (a
  /// record being appended, or a torn one, at the end of the newest segment
  /// ends them).
  func entries(from first: UInt64, through requestedLast: UInt64?) throws(JournalError) -> JournalEntries {
    let last = requestedLast ?? .max
    let segments = try contents().segments
    guard !segments.isEmpty else {
      if requestedLast == nil { return JournalEntries() }
      throw .versionNotWritten(requested: last, last: 0)
    }
    guard let oldest = segments.first?.firstVersion, first >= oldest else {
      throw .versionNotRetained(requested: first, oldestRetained: segments.first?.firstVersion)
    }
    var entries = JournalEntries()
    var expected = first
    for (index, segment) in segments.enumerated() {
      let next = index + 1 < segments.count ? segments[index + 1].firstVersion : UInt64.max
      guard segment.firstVersion <= last, next > first, expected <= last else { continue }
      let bytes: [UInt8]
      do {
        bytes = try FileIO.readAll(path: segment.path)
      } catch {
        throw .system(error)
      }
      let number = UInt32(entries.segments.count)
      let scanned: SegmentContents
      do {
        scanned = try bytes.withBytes { buffer throws(SegmentHeader.Problem) in
          try RecordReader.scanSegment(buffer) { record in
            guard record.version == expected, record.version <= last else { return }
            entries.slots.append(.init(record, segment: number))
            expected += 1
          }
        }
      } catch {
        throw error.journalError(path: segment.path, lastGoodVersion: expected - 1)
      }
      entries.segments.append(.init(path: segment.path, bytes: bytes, format: scanned.header.format))
      // Damage matters only if it hides a version that was asked for.
      // (Damage past `last` is ignored: it may be a batch being appended.)
      if expected <= last, next > expected, let damage = scanned.damage {
        if requestedLast == nil && next == .max { break }
        throw .damaged(
          JournalDamage(
            path: segment.path, offset: damage.offset, problem: damage.problem.description,
            validRecordAfter: nil, lastGoodVersion: expected - 1))
      }
    }
    guard expected > last || requestedLast == nil else {
      throw .versionNotWritten(requested: last, last: expected - 1)
    }
    return entries
  }
}

/// The retained journal, whole (``JournalReader/retained()``).
public struct RetainedJournal: Sendable {
  /// The snapshot the records continue from; `nil` when they start at
  /// version 1, from the app's initial state.
  public let snapshot: Snapshot?
  /// The records after it, contiguous, through the last written whole.
  public let records: JournalEntries

  /// The version of the state the records continue from.
  public var baseVersion: UInt64 { snapshot?.version ?? 0 }
  /// The version of the last record (or of the base, if there is none).
  public var lastVersion: UInt64 { records.last?.version ?? baseVersion }
}
