import Platform

/// The descriptor of a segment open for appending, closed when the last
/// holder lets it go.
///
/// The writer holds the current segment's; a sync beside the writer
/// (``JournalWriter/syncWritten()``) holds the one it syncs for the length
/// of its `fdatasync`, without the writer's mutex. A rotation or a close
/// meanwhile replaces the writer's, and the descriptor stays open until
/// the sync lets go of it too: it is never closed under a sync, so its
/// number is never reused for another file while one runs. Holding it
/// costs no system call, as a duplicate of the descriptor would.
final class SegmentDescriptor: Sendable {
  let fd: Int32

  /// Takes ownership of `fd`.
  init(_ fd: Int32) {
    self.fd = fd
  }

  deinit {
    if fd >= 0 { FileIO.close(fd) }
  }

  /// No descriptor: what a closed writer holds.
  static let none = SegmentDescriptor(-1)
}
