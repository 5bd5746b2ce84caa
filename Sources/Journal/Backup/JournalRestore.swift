import Glibc
import Platform

/// Brings a journal back to a version a copy holds (``JournalCopy``): the
/// copy's snapshot and its records up to that version, and a new epoch
/// after it.
///
/// The versions after the restored one will be issued again for other
/// actions, so the restored journal begins a new epoch at the next version
/// (an empty segment of its own): a subscriber that resumes with the old
/// epoch is given a fresh state instead of diffs of another history.
public enum JournalRestore {
  /// Restores the copy in `copy` into `target`, which holds no journal yet
  /// (and is locked by the caller), through `version` (the copy's last if
  /// nil), beginning `epoch` after it.
  ///
  /// - Returns: the restored journal, as recovery reads it.
  /// - Throws: ``JournalError/invalidArgument(_:)`` when `target` already
  ///   holds a journal or the copy does not hold `version`; recovery's
  ///   errors when the copy is damaged; a system failure.
  public static func restore(
    from copy: String, into target: JournalDirectory, through version: UInt64?, epoch: String
  ) throws(JournalError) -> RecoveredJournal {
    if let problem = Epoch.problem(epoch) { throw .invalidArgument("cannot restore: \(problem)") }
    let existing: DirectoryContents
    let source: DirectoryContents
    do {
      existing = try DirectoryContents(directory: target.path)
      source = try DirectoryContents(directory: copy)
    } catch {
      throw .system(error)
    }
    guard existing.segments.isEmpty && existing.snapshots.isEmpty else {
      throw .invalidArgument(
        "\(target.path) already holds a journal: move it aside first (a restore never overwrites one)")
    }
    let base = source.snapshots.first
    let from = base?.version ?? 0
    if let version, version < from {
      throw .invalidArgument(
        "the copy in \(copy) begins with its snapshot of version \(from): version \(version) is before it")
    }
    let start = source.segments.lastIndex { $0.firstVersion <= from &+ 1 } ?? 0
    var last = from
    var pieces: [(name: String, bytes: [UInt8])] = []
    if let base {
      pieces.append((JournalFileName.snapshot(base.version), try read(base.path)))
    }
    for segment in source.segments[min(start, source.segments.count)...] {
      if let version, last >= version { break }
      let bytes = try read(segment.path)
      var end: Int?
      let scanned: SegmentContents
      do {
        scanned = try bytes.withBytes { buffer throws(SegmentHeader.Problem) in
          try RecordReader.scanSegment(buffer) { record in
            if record.version > from && (version.map { record.version <= $0 } ?? true) {
              last = record.version
              end = record.end
            }
          }
        }
      } catch {
        throw error.journalError(path: segment.path, lastGoodVersion: last)
      }
      if let damage = scanned.damage {
        throw .damaged(
          JournalDamage(
            path: segment.path, offset: damage.offset, problem: damage.problem.description, validRecordAfter: nil,
            lastGoodVersion: last))
      }
      guard let end else { continue }
      pieces.append((JournalFileName.segment(segment.firstVersion), Array(bytes[..<end])))
    }
    if let version, version != last {
      throw .invalidArgument("the copy in \(copy) holds versions \(from)…\(last): not version \(version)")
    }
    for piece in pieces {
      try JournalCopy.write(piece.bytes, to: target.path + "/" + piece.name)
    }
    do throws(SystemFailure) {
      let segment = try SegmentCreation.create(
        directory: target.path, firstVersion: last &+ 1, epoch: epoch, replacingEmpty: nil)
      FileIO.close(segment.fd)
      try FileIO.syncDirectory(target.path)
    } catch {
      throw .system(error)
    }
    return try target.recover()
  }

  private static func read(_ path: String) throws(JournalError) -> [UInt8] {
    do {
      return try FileIO.readAll(path: path)
    } catch {
      throw .system(error)
    }
  }
}
