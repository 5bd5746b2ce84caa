import Glibc

/// The system calls behind the storage worker, each retried on `EINTR` and
/// failing with a ``StorageError`` that names the file and `errno`.
enum DurableFile {
  /// Reads the whole regular file at `path`, or nil if there is none.
  /// A file over `limit` bytes is refused without reading it, and anything
  /// but a regular file without waiting (`O_NONBLOCK`: opening a FIFO would
  /// wait for a writer for ever; it changes nothing for a regular file).
  static func read(_ path: String, limit: Int) throws(StorageError) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    if descriptor < 0 {
      if errno == ENOENT || errno == ENOTDIR { return nil }
      throw .system("open", path: path)
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .system("stat", path: path) }
    guard status.st_mode & S_IFMT == S_IFREG else { throw StorageError("read", path: path, reason: .notARegularFile) }
    guard status.st_size <= limit else {
      throw StorageError(
        "read", path: path, reason: .limit("it is \(status.st_size) bytes, over the \(limit)-byte limit for a document")
      )
    }
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
    var offset = 0
    while offset < bytes.count {
      // invariant: offset < bytes.count: the buffer is not empty, so it has a base address
      let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + offset, $0.count - offset) }
      if count > 0 {
        offset += count
      } else if count == 0 {
        bytes.removeSubrange(offset...)  // shrank while being read
      } else if errno != EINTR {
        throw .system("read", path: path)
      }
    }
    return bytes
  }

  /// Replaces the file at `path` with `bytes`, atomically and durably: the
  /// bytes go to a fresh temporary file in the same directory (named
  /// `.tmp-XXXXXX`, which no document name can be), which is fsynced and
  /// renamed over `path`; then the directory is fsynced, so the rename itself
  /// survives a crash. A reader sees the old document or the new one, never
  /// a mixture; a crash leaves at most a temporary file behind.
  static func replace(_ path: String, in directory: String, with bytes: UnsafeRawBufferPointer) throws(StorageError) {
    var template = Array((directory + "/.tmp-XXXXXX").utf8CString)
    // invariant: the template holds the directory, the name and a NUL: never empty, so both buffers have a base
    // address
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    // invariant: the same template, not empty
    let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    guard descriptor >= 0 else { throw .system("create a temporary file in", path: directory) }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    var closed = false
    var renamed = false
    defer {
      if !closed { close(descriptor) }
      if !renamed { unlink(temporary) }
    }
    var offset = 0
    while offset < bytes.count {
      // invariant: offset < bytes.count: the buffer is not empty, so it has a base address
      let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if count > 0 {
        offset += count
      } else if count < 0 && errno != EINTR {
        throw .system("write", path: temporary)
      }
    }
    guard fsync(descriptor) == 0 else { throw .system("fsync", path: temporary) }
    closed = true
    guard close(descriptor) == 0 else { throw .system("close", path: temporary) }
    guard rename(temporary, path) == 0 else { throw .system("rename \(temporary) to", path: path) }
    renamed = true
    try syncDirectory(directory)
  }

  /// Removes the file at `path` and fsyncs its directory. Returns whether
  /// there was a file.
  static func remove(_ path: String, in directory: String) throws(StorageError) -> Bool {
    guard unlink(path) == 0 else {
      if errno == ENOENT || errno == ENOTDIR { return false }
      throw .system("delete", path: path)
    }
    try syncDirectory(directory)
    return true
  }

  /// Creates the directory at `path` (mode 0700) and, when it was missing,
  /// fsyncs `parent` so the new entry is durable. Returns whether it was created.
  @discardableResult
  static func makeDirectory(_ path: String, in parent: String) throws(StorageError) -> Bool {
    guard mkdir(path, 0o700) == 0 else {
      if errno == EEXIST {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .system("stat", path: path) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .system("use", path: path, errno: ENOTDIR) }
        return false
      }
      throw .system("create the directory", path: path)
    }
    try syncDirectory(parent)
    return true
  }

  /// Creates the directory at `path` and every missing parent, like `mkdir -p`.
  static func makeDirectories(_ path: String) throws(StorageError) {
    var status = stat()
    if stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR { return }
    let parent = parentDirectory(of: path)
    if parent != path { try makeDirectories(parent) }
    try makeDirectory(path, in: parent)
  }

  /// Flushes a directory's entries (creations, renames, deletions) to disk.
  static func syncDirectory(_ path: String) throws(StorageError) {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system("open the directory", path: path) }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw .system("fsync the directory", path: path) }
  }

  /// The names in a directory, `.` and `..` excepted; nil if it does not exist.
  static func names(in path: String) throws(StorageError) -> [String]? {
    guard let directory = opendir(path) else {
      if errno == ENOENT { return nil }
      throw .system("list the directory", path: path)
    }
    defer { closedir(directory) }
    var names: [String] = []
    while true {
      errno = 0
      guard let entry = readdir(directory) else {
        if errno != 0 { throw .system("list the directory", path: path) }
        return names
      }
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
  }

  static func parentDirectory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}
