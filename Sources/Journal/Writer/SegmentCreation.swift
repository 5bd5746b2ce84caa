import Glibc
import Platform

/// A segment open for appending.
struct OpenSegment {
  var fd: Int32
  var path: String
  var firstVersion: UInt64
  /// Its length: where the next record goes.
  var size: Int
  var headerLength: Int
}

/// Creating a segment so that it is never seen half-made: the header is
/// written to `<name>.creating` and synced, renamed to `<name>`, and the
/// directory synced, so after a crash a segment either exists with its whole
/// header or not at all.
enum SegmentCreation {
  /// Creates the segment whose first record will be `firstVersion`.
  ///
  /// - Parameter replacingEmpty: the path of a segment with no records that
  ///   may be replaced (recovery's newest segment, of another epoch). Any
  ///   other existing file of the same name is refused, never overwritten.
  static func create(
    directory: String, firstVersion: UInt64, epoch: String, replacingEmpty: String?
  ) throws(SystemFailure) -> OpenSegment {
    let path = directory + "/" + JournalFileName.segment(firstVersion)
    if FileIO.exists(path), path != replacingEmpty {
      throw SystemFailure("create (a segment of that name exists and is not replaced)", path: path, code: EEXIST)
    }
    let temporary = path + JournalFileName.creatingSuffix
    let header = SegmentHeader(firstVersion: firstVersion, epoch: epoch).encoded()
    let fd = try FileIO.open(temporary, O_WRONLY | O_CREAT | O_TRUNC)
    do {
      try FileIO.writeAll(header, to: fd, path: temporary)
      try FileIO.syncAll(fd, path: temporary)
      try FileIO.rename(temporary, to: path)
      try FileIO.syncDirectory(directory)
    } catch {
      FileIO.close(fd)
      if FileIO.exists(temporary) { try? FileIO.remove(temporary) }
      throw error
    }
    return OpenSegment(fd: fd, path: path, firstVersion: firstVersion, size: header.count, headerLength: header.count)
  }
}
