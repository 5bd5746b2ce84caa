import Glibc
import Wire

/// Creates the directories the daemon needs, with private permissions.
enum DirectorySetup {
  /// Creates `path` and its missing parents; directories this call creates get
  /// `mode`. An existing directory is left as it is.
  static func create(_ path: String, mode: mode_t) throws(SocketError) {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      prefix += "/" + component
      if mkdir(prefix, mode) != 0 && errno != EEXIST {
        throw SocketError("mkdir", path: prefix)
      }
    }
    var info = stat()
    guard stat(path, &info) == 0 else { throw SocketError("stat", path: path) }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw SocketError("mkdir", path: path, errno: ENOTDIR, detail: "it exists and is not a directory")
    }
  }
}
