import Glibc
import JSON
import Platform

/// What ``JournalDirectory/writeSnapshot(version:state:epoch:time:)`` did.
public struct SnapshotResult: Sendable, Hashable {
  /// The snapshot file.
  public let path: String
  public let version: UInt64
  /// Its size in bytes.
  public let bytes: Int
  /// The files compaction removed: covered segments, older snapshots, and
  /// temporary files of interrupted snapshots.
  public let removed: [String]
}

/// Writing a snapshot atomically, then compacting (unless asked not to).
enum SnapshotWriting {
  static func write(
    directory: String, version: UInt64, state: JSONValue, epoch: String, time: Int64, schema: Int,
    compacting: Bool = true
  ) throws(JournalError) -> SnapshotResult {
    let path = directory + "/" + JournalFileName.snapshot(version)
    do throws(SystemFailure) {
      var size: Int
      if FileIO.exists(path) {
        // The same version was snapshotted before: the file is not replaced.
        let fd = try FileIO.open(path, O_RDONLY)
        defer { FileIO.close(fd) }
        size = try FileIO.fileSize(fd, path: path)
      } else {
        let bytes = SnapshotFile.encode(version: version, epoch: epoch, time: time, state: state, schema: schema)
        let temporary = path + JournalFileName.temporarySuffix
        let fd = try FileIO.open(temporary, O_WRONLY | O_CREAT | O_TRUNC)
        do throws(SystemFailure) {
          try FileIO.writeAll(bytes, to: fd, path: temporary)
          try FileIO.syncAll(fd, path: temporary)
          FileIO.close(fd)
        } catch {
          FileIO.close(fd)
          try? FileIO.remove(temporary)
          throw error
        }
        try FileIO.rename(temporary, to: path)
        try FileIO.syncDirectory(directory)
        size = bytes.count
      }
      let removed = compacting ? try compact(directory: directory, through: version) : []
      return SnapshotResult(path: path, version: version, bytes: size, removed: removed)
    } catch {
      throw .system(error)
    }
  }

  /// Removes what the durable snapshot of `version` makes unnecessary:
  /// segments all of whose records are at most `version` (a segment is
  /// covered when the next one starts at or before `version + 1`; the newest
  /// is never removed), older snapshots, and temporary snapshot files up to
  /// `version`.
  static func compact(directory: String, through version: UInt64) throws(SystemFailure) -> [String] {
    let contents = try DirectoryContents(directory: directory)
    var removed: [String] = []
    let segments = contents.segments
    for index in segments.indices.dropLast() where segments[index + 1].firstVersion <= version &+ 1 {
      removed.append(segments[index].path)
    }
    for snapshot in contents.snapshots where snapshot.version < version {
      removed.append(snapshot.path)
    }
    for pending in contents.pendingSnapshots where pending.version <= version {
      removed.append(pending.path)
    }
    for path in removed {
      try FileIO.remove(path)
    }
    if !removed.isEmpty { try FileIO.syncDirectory(directory) }
    return removed
  }
}
