import Glibc
import Platform

/// A consistent copy of a journal directory while a daemon may be writing
/// it: the newest snapshot and every record after it, up to the last whole
/// record that was in the journal when the copy was taken.
///
/// It takes no lock and changes nothing in the source. Segments and
/// snapshots are never rewritten, only appended to (the newest segment) or
/// removed (by compaction, after a newer snapshot is durable): so every
/// file of one listing is opened first, and once open, a file compaction
/// removes can still be read. A file gone before it was opened means a
/// snapshot was written meanwhile, and the copy starts again from a new
/// listing. The newest segment is synced before it is read, so that the
/// copy holds only records on the device, and read up to its last whole
/// record (one being appended is left out). The copy is then checked as
/// recovery checks a journal.
public enum JournalCopy {
  /// What a copy holds.
  public struct Result: Sendable, Hashable {
    /// The snapshot's version (0 without one: the records start at 1).
    public let from: UInt64
    /// The last version copied.
    public let through: UInt64
    /// The epoch of the last version.
    public let epoch: String?
    /// The files written, by name, in the order written.
    public let files: [String]
  }

  /// How many listings a copy tries before giving up on a journal that
  /// compacts faster than it can be copied.
  static let attempts = 16

  /// Copies the journal in `source` into `destination`, an empty directory.
  ///
  /// - Throws: ``JournalError/damaged(_:)`` and the other recovery errors
  ///   when the source's records are not whole and contiguous (the copy
  ///   would not recover); ``JournalError/invalidArgument(_:)`` when the
  ///   journal changed under every attempt; a system failure.
  public static func copy(from source: String, to destination: String) throws(JournalError) -> Result {
    for _ in 0..<attempts {
      let listed: DirectoryContents
      do {
        listed = try DirectoryContents(directory: source)
      } catch {
        throw .system(error)
      }
      guard let files = try openConsistentSet(listed) else { continue }
      defer { for file in files { FileIO.close(file.fd) } }
      var written: [String] = []
      for (index, file) in files.enumerated() {
        let name = String(file.path.split(separator: "/").last ?? "")
        let bytes = try contents(of: file, isNewestSegment: index == files.count - 1 && file.isSegment)
        try write(bytes, to: destination + "/" + name)
        written.append(name)
      }
      do {
        try FileIO.syncDirectory(destination)
      } catch {
        throw .system(error)
      }
      let recovered = try JournalRecovery(directory: destination, repair: false).run()
      return Result(
        from: recovered.snapshot?.version ?? 0, through: recovered.report.lastVersion, epoch: recovered.epoch,
        files: written)
    }
    throw .invalidArgument(
      "the journal of \(source) was compacted under each of \(attempts) attempts to copy it: "
        + "snapshots are written faster than it can be read; try again, or with a larger --snapshot-every")
  }

  private struct OpenFile {
    let path: String
    let fd: Int32
    let isSegment: Bool
  }

  /// The newest snapshot and the segments from the one holding the version
  /// after it, all open; nil if one of them was removed before it could be
  /// opened.
  private static func openConsistentSet(_ listed: DirectoryContents) throws(JournalError) -> [OpenFile]? {
    let base = listed.snapshots.first
    let start = listed.segments.lastIndex { $0.firstVersion <= (base?.version ?? 0) &+ 1 } ?? 0
    let paths =
      (base.map { [($0.path, false)] } ?? [])
      + listed.segments[min(start, listed.segments.count)...].map { ($0.path, true) }
    var opened: [OpenFile] = []
    for (path, isSegment) in paths {
      do {
        opened.append(OpenFile(path: path, fd: try FileIO.open(path, O_RDONLY), isSegment: isSegment))
      } catch {
        for file in opened { FileIO.close(file.fd) }
        if error.code == ENOENT { return nil }
        throw .system(error)
      }
    }
    return opened
  }

  /// The bytes of `file` to copy: all of them, but for the newest segment,
  /// synced first and cut after its last whole record.
  private static func contents(of file: OpenFile, isNewestSegment: Bool) throws(JournalError) -> [UInt8] {
    let bytes: [UInt8]
    do {
      if isNewestSegment { try FileIO.syncData(file.fd, path: file.path) }
      bytes = try FileIO.readAll(file.fd, path: file.path)
    } catch {
      throw .system(error)
    }
    guard isNewestSegment else { return bytes }
    // A bad header is left for the recovery of the copy to name.
    guard let scanned = bytes.withUnsafeBytes({ try? RecordReader.scanSegment($0, visit: { _ in }) }) else {
      return bytes
    }
    if let damage = scanned.damage,
      let after = bytes.withUnsafeBytes({ RecordReader.nextValidRecord(in: $0, from: damage.offset + 1) })
    {
      // Whole records after it: damage, not a record being appended.
      throw .damaged(
        JournalDamage(
          path: file.path, offset: damage.offset, problem: damage.problem.description,
          validRecordAfter: after.offset,
          lastGoodVersion: scanned.header.firstVersion &+ UInt64(scanned.recordCount) &- 1))
    }
    return Array(bytes[..<scanned.end])
  }

  /// Writes `bytes` to a new file at `path` and syncs it.
  static func write(_ bytes: [UInt8], to path: String) throws(JournalError) {
    do {
      try FileIO.createSynced(path, with: bytes)
    } catch {
      throw .system(error)
    }
  }
}
