import Glibc
import Platform

/// Recovery: reads the latest snapshot and every record after it, checks
/// them, and decides what to do about damage — all before changing any file,
/// so that a recovery that refuses leaves the directory exactly as it was.
///
/// The rules (docs/DURABILITY.md, "Recovery"):
///
/// 1. The newest readable snapshot is the base. An unreadable one stops
///    recovery, naming it; with `repair`, it is moved aside and the next older
///    base is used, but only if the journal still holds every version up to
///    the unreadable one's (otherwise those versions would be lost).
/// 2. Segments whose records the snapshot wholly covers are not read.
/// 3. Records after the base must be contiguous: base + 1, + 2, …
/// 4. A record that is cut short or fails its checks at the end of the
///    newest segment, with no valid record anywhere after it, is a torn
///    tail: a crash mid-append. Its bytes are copied to a side file and cut
///    off, with a warning. Such a record was never acknowledged.
/// 5. Any other damage — valid records follow it, it is in an older
///    segment, a checksum-valid record is not a record, a version gap or
///    overlap, a bad segment header — stops recovery, naming the file and
///    offset. With `repair`, the records before it are kept and the damaged
///    bytes and every later segment are moved aside (never deleted), and the
///    report lists the dropped bytes and the versions readable in them.
/// 6. A file of a newer format is never repaired: it stops recovery.
struct JournalRecovery {
  let directory: String
  let repair: Bool

  /// A change to make once the whole journal has been checked.
  enum Action {
    case cutTornTail(path: String, offset: Int, bytes: ArraySlice<UInt8>, problem: String)
    case cutDamage(path: String, offset: Int, bytes: ArraySlice<UInt8>, problem: String, readable: [UInt64])
    case moveSegmentAside(path: String, problem: String)
    case moveSnapshotAside(path: String, reason: String)
  }

  func run() throws(JournalError) -> RecoveredJournal {
    let contents: DirectoryContents
    do {
      contents = try DirectoryContents(directory: directory)
    } catch {
      throw .system(error)
    }
    var report = RecoveryReport()
    report.events += contents.interrupted.map { .interruptedFile(path: $0) }
    report.events += contents.setAside.map { .setAsideFile(path: $0) }
    var actions: [Action] = []

    // 1. The base snapshot.
    var snapshot: Snapshot?
    var unreadable: [(version: UInt64, path: String, error: JournalError)] = []
    for candidate in contents.snapshots {
      do {
        snapshot = try SnapshotFile.read(path: candidate.path, version: candidate.version)
        break
      } catch {
        guard repair, case .unreadableSnapshot(_, let reason, _) = error else { throw error }
        unreadable.append((candidate.version, candidate.path, error))
        actions.append(.moveSnapshotAside(path: candidate.path, reason: reason))
      }
    }
    let base = snapshot?.version ?? 0
    report.snapshotPath = snapshot?.path
    report.baseVersion = base

    // 2. Segments the snapshot covers are skipped.
    let segments = contents.segments
    let start = segments.lastIndex { $0.firstVersion <= base &+ 1 } ?? 0
    for segment in segments[..<start] {
      report.events.append(.supersededSegment(path: segment.path))
    }

    // 3–5. The records after the base.
    var entries = JournalEntries()
    var expected = base + 1
    var tail: RecoveredJournal.Tail?
    var epoch = snapshot?.epoch
    var index = start
    scanning: while index < segments.count {
      let (firstVersion, path) = segments[index]
      let isNewest = index == segments.count - 1
      let (bytes, identity) = try read(path)
      var damage: (offset: Int, problem: RecordProblem?, text: String)?
      var contentsOfSegment: SegmentContents?
      let slotsBefore = entries.slots.count
      let segmentNumber = UInt32(entries.segments.count)
      do {
        contentsOfSegment = try bytes.withBytes { buffer throws(SegmentHeader.Problem) in
          try RecordReader.scanSegment(buffer) { record in
            guard record.version >= expected else { return }
            entries.slots.append(.init(record, segment: segmentNumber))
          }
        }
      } catch {
        switch error {
        case .unsupportedFormat(let format):
          throw .unsupportedFormat(path: path, found: format, supported: SegmentHeader.formatVersion)
        case .foreign(let firstBytes):
          guard repair else { throw .foreignFile(path: path, firstBytes: firstBytes) }
          damage = (0, nil, "it is not a journal segment (it begins with \(hexBytes(firstBytes)))")
        case .damaged(let reason):
          damage = (0, nil, "its segment header is damaged: \(reason)")
        }
      }

      if let segment = contentsOfSegment {
        let header = segment.header
        if header.firstVersion == 0 {
          damage = (0, nil, "its header says its first version is 0, which no record has")
        } else if header.firstVersion != firstVersion {
          damage = (
            0, nil, "its header says its first version is \(header.firstVersion), its name says \(firstVersion)"
          )
        } else if index == start ? header.firstVersion > expected : header.firstVersion != expected {
          let problem = RecordProblem.versionOutOfSequence(expected: expected, found: header.firstVersion)
          damage = (0, problem, "its first version does not follow: \(problem)")
        } else if let found = segment.damage {
          damage = (found.offset, found.problem, found.problem.description)
        }
        if damage?.offset == 0 {
          entries.slots.removeSubrange(slotsBefore...)
        } else {
          let last = header.firstVersion &+ UInt64(segment.recordCount) &- 1
          if segment.recordCount > 0, last >= expected { expected = last &+ 1 }
          entries.segments.append(.init(path: path, bytes: bytes, format: header.format))
          report.segmentsRead.append(path)
          epoch = header.epoch
          tail = .init(
            path: path, identity: identity, header: header, end: segment.end, headerLength: segment.headerLength,
            lastVersion: last)
        }
      }

      if let damage {
        let validAfter = bytes.withUnsafeBytes { RecordReader.nextValidRecord(in: $0, from: damage.offset + 1) }
        if isNewest, damage.offset > 0, damage.problem?.couldBeTornWrite == true, validAfter == nil {
          actions.append(
            .cutTornTail(path: path, offset: damage.offset, bytes: bytes[damage.offset...], problem: damage.text))
          tail?.end = damage.offset
          break scanning
        }
        guard repair else {
          throw .damaged(
            JournalDamage(
              path: path, offset: damage.offset, problem: damage.text, validRecordAfter: validAfter?.offset,
              lastGoodVersion: expected - 1))
        }
        if damage.offset == 0 {
          actions.append(.moveSegmentAside(path: path, problem: damage.text))
        } else {
          let readable = bytes.withUnsafeBytes { RecordReader.readableVersions(in: $0, from: damage.offset) }
          actions.append(
            .cutDamage(
              path: path, offset: damage.offset, bytes: bytes[damage.offset...], problem: damage.text,
              readable: readable))
          tail?.end = damage.offset
        }
        for later in segments[(index + 1)...] {
          actions.append(.moveSegmentAside(path: later.path, problem: "it follows the damage in \(path)"))
        }
        break scanning
      }
      index += 1
    }

    let lastVersion = expected - 1
    // An unreadable snapshot may be gone around only if no version is lost.
    for skipped in unreadable where skipped.version > lastVersion {
      guard case .unreadableSnapshot(let path, let reason, _) = skipped.error else { throw skipped.error }
      throw .unreadableSnapshot(
        path: path, reason: reason,
        repairAdvice: "--repair cannot go around it: the journal holds versions only up to \(lastVersion), so "
          + "versions up to \(skipped.version) exist only in this snapshot. Restore it from a backup.")
    }

    try perform(actions, report: &report)
    let bytesSinceSnapshot = entries.slots.reduce(0) { $0 + RecordFormat.headerLength + Int($1.payloadLength) }
    report.recordCount = entries.count
    report.lastVersion = lastVersion
    return RecoveredJournal(
      directory: directory, snapshot: snapshot, records: entries, report: report, epoch: epoch,
      bytesSinceSnapshot: bytesSinceSnapshot, tail: tail)
  }

  /// The bytes and identity of the file at `path`.
  func read(_ path: String) throws(JournalError) -> ([UInt8], FileIdentity) {
    do {
      let fd = try FileIO.open(path, O_RDONLY)
      defer { FileIO.close(fd) }
      return (try FileIO.readAll(fd, path: path), try FileIO.identity(fd, path: path))
    } catch {
      throw .system(error)
    }
  }
}
