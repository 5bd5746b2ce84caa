import Glibc
import Wire

/// Creates the directories the daemon needs, with private permissions, and
/// checks that a directory it did not create is safe to put a socket in.
enum DirectorySetup {
  /// Creates `path` and its missing parents with exactly `mode` (the umask does
  /// not narrow it); returns the directories this call created, outermost
  /// first. Existing directories are left as they are.
  @discardableResult
  static func create(_ path: String, mode: mode_t) throws(SocketError) -> [String] {
    var created: [String] = []
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      prefix += "/" + component
      if mkdir(prefix, mode) == 0 {
        _ = chmod(prefix, mode)
        created.append(prefix)
      } else if errno != EEXIST {
        throw SocketError("mkdir", path: prefix)
      }
    }
    var info = stat()
    guard stat(path, &info) == 0 else { throw SocketError("stat", path: path) }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw SocketError("mkdir", path: path, errno: ENOTDIR, detail: "it exists and is not a directory")
    }
    return created
  }

  /// Refuses a socket directory another user could tamper with: it must be a
  /// real directory (not a symbolic link) owned by this user or root, and
  /// writable by others only if sticky (like /tmp). Otherwise someone could
  /// replace the socket and impersonate the daemon.
  static func checkSafeForSocket(_ path: String) throws(SocketError) {
    var info = stat()
    guard lstat(path, &info) == 0 else { throw SocketError("lstat", path: path) }
    let fix = "choose another --socket, or remove the directory so storedaemon can create it"
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw SocketError("socket directory", path: path, errno: 0, detail: "it is not a directory (a symbolic link?); \(fix)")
    }
    guard info.st_uid == geteuid() || info.st_uid == 0 else {
      throw SocketError(
        "socket directory", path: path, errno: 0,
        detail: "it belongs to uid \(info.st_uid), not to this user (uid \(geteuid())); \(fix)")
    }
    let writableByOthers = info.st_mode & (S_IWGRP | S_IWOTH) != 0
    guard !writableByOthers || info.st_mode & S_ISVTX != 0 else {
      throw SocketError("socket directory", path: path, errno: 0, detail: "others may write to it; \(fix)")
    }
  }
}
