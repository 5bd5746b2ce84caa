import Glibc
import Platform

/// An exclusive `flock` on `<journal directory>/lock`, held for as long as
/// this object lives: two processes appending to one journal would interleave
/// records and corrupt it, so the second is refused with the first's pid.
///
/// The lock is advisory and per open file description; it goes away when the
/// holding process exits however it exits (`kill -9` included), so a stale
/// lock file never blocks a restart.
final class DirectoryLock: Sendable {
  /// The lock file's path.
  let path: String
  /// The descriptor holding the lock; closed (releasing it) on deinit.
  let fd: Int32

  /// How many times a busy lock is retried, 10 ms apart.
  static let attempts = 100

  /// The name of the lock file inside a journal directory.
  static let fileName = "lock"

  /// Takes the lock of `directory`, creating the lock file if needed.
  ///
  /// - Throws: ``JournalError/locked(path:holder:)`` if another process (or
  ///   another ``JournalDirectory`` in this one) holds it.
  init(directory: String) throws(JournalError) {
    path = directory + "/" + Self.fileName
    let fd: Int32
    do {
      fd = try FileIO.open(path, O_RDWR | O_CREAT)
    } catch {
      throw .system(error)
    }
    // A lock released a moment ago may still be held for a few microseconds
    // by a child process this one is spawning (it shares the descriptor
    // until its exec closes it), so a busy lock is retried for a while.
    var attempts = 0
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      if code == EINTR { continue }
      if code == EWOULDBLOCK, attempts < Self.attempts {
        attempts += 1
        usleep(10_000)
        continue
      }
      let holder = Self.holder(fd)
      FileIO.close(fd)
      if code == EWOULDBLOCK { throw .locked(path: path, holder: holder) }
      throw .system(SystemFailure("flock", path: path, code: code))
    }
    self.fd = fd
    // The holder's pid, for the message another process gets. Not synced: it
    // is information, and a stale pid after a crash is harmless.
    let pid = Array("\(getpid())\n".utf8)
    _ = ftruncate(fd, 0)
    _ = try? FileIO.writeAll(pid, to: fd, path: path)
  }

  deinit {
    FileIO.close(fd)
  }

  /// The pid written in the lock file by its holder, if readable.
  private static func holder(_ fd: Int32) -> Int32? {
    guard let bytes = try? FileIO.readAll(fd, path: "lock") else { return nil }
    let text = String(decoding: bytes, as: UTF8.self).trimmingSuffix { $0 == "\n" }
    return Int32(text)
  }
}

extension String {
  /// The string without trailing characters matching `predicate`.
  func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
    var result = self
    while let last = result.last, predicate(last) { result.removeLast() }
    return result
  }
}
