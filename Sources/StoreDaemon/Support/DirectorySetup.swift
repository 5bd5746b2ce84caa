import Glibc
import Platform
import Wire

/// Creates the directories the daemon needs, with private permissions, and
/// checks that no other user can change the directories it keeps its socket
/// and its state in.
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

  /// Refuses a socket directory another user could tamper with (see
  /// ``checkNoOtherUserCanChange(_:role:fix:)``): someone could replace the
  /// socket and impersonate the daemon.
  static func checkSafeForSocket(_ path: String) throws(SocketError) {
    try checkNoOtherUserCanChange(
      path, role: "socket directory",
      fix: "choose another --socket, or remove the directory so \(DaemonName.current) can create it")
  }

  /// Refuses a state directory another user could tamper with: they could
  /// plant a settings file or a journal, or move the state away.
  static func checkSafeForState(_ path: String) throws(SocketError) {
    try checkNoOtherUserCanChange(
      path, role: "state directory",
      fix: "choose another --state-dir, or give it to this user with mode 0700")
  }

  /// Refuses `path` unless no user but this one and root can change what it
  /// holds, as OpenSSH's `StrictModes` checks a key's path:
  ///
  /// - `path` itself is a real directory, not a symbolic link;
  /// - every directory from `path` up to `/`, both as written and as it
  ///   resolves (symbolic links followed), belongs to this user or root;
  /// - none of them is writable by its group or others, unless it is sticky
  ///   (like /tmp): then others may add entries but not rename or remove the
  ///   ones that are not theirs.
  ///
  /// A directory an other user could write to would let them rename the one
  /// below it and put their own in its place, between two checks or after
  /// the daemon started.
  ///
  /// - Throws: a ``SocketError`` naming `path`, the directory at fault, its
  ///   owner and its mode, and `fix`.
  static func checkNoOtherUserCanChange(_ path: String, role: String, fix: String) throws(SocketError) {
    var info = stat()
    guard lstat(path, &info) == 0 else { throw SocketError("lstat", path: path) }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw SocketError(role, path: path, errno: 0, detail: "it is not a directory (a symbolic link?); \(fix)")
    }
    guard let resolved = realpath(path, nil) else { throw SocketError("realpath", path: path) }
    defer { free(resolved) }
    var written = path
    if !written.hasPrefix("/") {
      guard let directory = getcwd(nil, 0) else { throw SocketError("getcwd", path: path) }
      defer { free(directory) }
      written = String(cString: directory) + "/" + written
    }
    let asWritten = chain(written)
    let asResolved = chain(String(cString: resolved))
    for directory in Set(asWritten + asResolved).sorted() {
      if let problem = problem(with: directory) {
        let place = directory == asWritten.last || directory == asResolved.last ? "" : "\(directory), above it: "
        throw SocketError(role, path: path, errno: 0, detail: "\(place)\(problem); \(fix)")
      }
    }
  }

  /// `path` and each directory above it, up to `/`.
  private static func chain(_ path: String) -> [String] {
    var directories = ["/"]
    var prefix = ""
    for component in path.split(separator: "/") where component != "." {
      prefix += "/" + component
      directories.append(prefix)
    }
    return directories
  }

  /// Why another user could change the entries of `directory` (which is a
  /// directory or a symbolic link, whose own parent is checked too); nil if
  /// no one can but this user and root.
  private static func problem(with directory: String) -> String? {
    var info = stat()
    guard lstat(directory, &info) == 0 else { return "it cannot be examined (\(String(cString: strerror(errno))))" }
    guard info.st_mode & S_IFMT == S_IFDIR else { return nil }
    let mode = "mode " + String(info.st_mode & 0o7777, radix: 8).leftPadded(to: 4)
    let me = geteuid()
    guard info.st_uid == me || info.st_uid == 0 else {
      return "it belongs to \(DaemonUser.name(info.st_uid)), \(mode); only this user "
        + "(\(DaemonUser.name(me))) or root may own it, or its owner could replace what it holds"
    }
    if info.st_mode & (S_IWGRP | S_IWOTH) != 0 && info.st_mode & S_ISVTX == 0 {
      let who = info.st_mode & S_IWOTH != 0 ? "others" : "its group"
      return "\(who) may write to it (\(mode), owner \(DaemonUser.name(info.st_uid))) and it is not sticky, "
        + "so \(who) could replace what it holds"
    }
    return nil
  }

}

extension String {
  /// The string with leading zeros up to `width` characters.
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
