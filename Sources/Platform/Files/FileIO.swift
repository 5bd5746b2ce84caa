import Glibc

/// The system calls the journal makes, each retried on `EINTR` only and
/// otherwise failing with a ``SystemFailure`` that names the call and file.
///
/// Every descriptor is opened with `O_CLOEXEC`: the daemon starts worker
/// processes, which must not inherit (and keep open) journal files.
package enum FileIO {
  /// Permission bits of the files the journal creates: they hold the users'
  /// state and actions, so they are private to the daemon's user.
  package static let fileMode: mode_t = 0o600
  /// Permission bits of a journal directory the library creates.
  package static let directoryMode: mode_t = 0o700
  /// Files are read in pieces of at most this size, so that one `read` never
  /// asks the kernel for more than it will hand over at once.
  package static let readChunk = 16 << 20

  /// Opens `path`. Unless `flags` ask for a directory, it must be a regular
  /// file: anything else named like a journal file (a FIFO, a socket, a
  /// device, a directory, a symbolic link) cannot be the daemon's, and is
  /// refused, naming it, without waiting (`O_NONBLOCK`: opening a FIFO
  /// would otherwise wait for a writer for ever; it changes nothing for a
  /// regular file).
  package static func open(_ path: String, _ flags: Int32, mode: mode_t = fileMode) throws(SystemFailure) -> Int32 {
    let wantsFile = flags & O_DIRECTORY == 0
    let fd: Int32
    while true {
      let opened = Glibc.open(path, flags | O_CLOEXEC | (wantsFile ? O_NOFOLLOW | O_NONBLOCK : 0), mode)
      if opened >= 0 {
        fd = opened
        break
      }
      if errno == EINTR { continue }
      let failure = SystemFailure.last("open", path: path)
      // ELOOP: a symbolic link (O_NOFOLLOW); ENXIO: a FIFO without a reader
      // or a socket, opened for writing.
      if wantsFile && (failure.code == ELOOP || failure.code == ENXIO), let kind = kind(atPath: path) {
        throw notARegularFile(path, kind)
      }
      throw failure
    }
    guard wantsFile else { return fd }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let failure = SystemFailure.last("fstat", path: path)
      close(fd)
      throw failure
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      throw notARegularFile(path, describe(info.st_mode))
    }
    return fd
  }

  /// What the entry at `path` is, if it is not a regular file.
  private static func kind(atPath path: String) -> String? {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return nil }
    return describe(info.st_mode)
  }

  private static func describe(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFDIR: "a directory"
    case S_IFLNK: "a symbolic link"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    default: "a special file"
    }
  }

  private static func notARegularFile(_ path: String, _ kind: String) -> SystemFailure {
    SystemFailure(
      "open", path: path, code: EINVAL,
      detail: "it is \(kind), not a regular file, so it cannot be the daemon's; it was left as it is: move it out of "
        + "the directory (or rename it) and start again")
  }

  /// Closes `fd`. A failing `close` is ignored: by then the journal has
  /// synced what it needs (an unsynced close error is what `fdatasync`
  /// reports), and `close` must not be retried on Linux.
  package static func close(_ fd: Int32) {
    _ = Glibc.close(fd)
  }

  /// Writes all of `bytes` at `offset`, continuing after short writes.
  ///
  /// - Returns: `nil` when everything was written, else the failure and how
  ///   many bytes were written before it (the caller cuts them off).
  package static func write(
    _ bytes: UnsafeRawBufferPointer, to fd: Int32, at offset: Int, path: String
  ) -> (failure: SystemFailure, written: Int)? {
    var written = 0
    while written < bytes.count {
      // invariant: written < bytes.count: the buffer is not empty, so it has a base address
      let result = pwrite(fd, bytes.baseAddress! + written, bytes.count - written, off_t(offset + written))
      if result > 0 {
        written += result
      } else if result == 0 {
        // pwrite of a non-zero count returns 0 only on an odd device; treat it
        // as having no room rather than spinning.
        return (SystemFailure("write", path: path, code: ENOSPC), written)
      } else if errno != EINTR {
        return (.last("write", path: path), written)
      }
    }
    return nil
  }

  /// Writes all of `bytes` at `offset`, throwing on any failure.
  package static func writeAll(_ bytes: [UInt8], to fd: Int32, at offset: Int = 0, path: String) throws(SystemFailure) {
    let failure = bytes.withUnsafeBytes { write($0, to: fd, at: offset, path: path) }
    if let failure { throw failure.failure }
  }

  /// Reads `count` bytes at `offset` into `buffer` starting at `bufferOffset`.
  ///
  /// - Returns: how many bytes were read; fewer than `count` only at the end
  ///   of the file.
  package static func read(
    _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, count: Int, at offset: Int, path: String
  ) throws(SystemFailure) -> Int {
    var done = 0
    while done < count {
      let want = min(count - done, readChunk)
      // invariant: done < count, and the caller's buffer holds count bytes: it is not empty, so it has a base address
      let result = pread(fd, buffer.baseAddress! + done, want, off_t(offset + done))
      if result > 0 {
        done += result
      } else if result == 0 {
        break
      } else if errno != EINTR {
        throw .last("read", path: path)
      }
    }
    return done
  }

  /// The whole contents of the open file `fd`, read in large chunks into one
  /// buffer sized from `fstat` (a file that grows meanwhile is read to the
  /// size it had; one that shrinks, to its new end).
  package static func readAll(_ fd: Int32, path: String) throws(SystemFailure) -> [UInt8] {
    let size = try fileSize(fd, path: path)
    guard size > 0 else { return [] }
    var failure: SystemFailure?
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
      do throws(SystemFailure) {
        initialized = try read(fd, into: UnsafeMutableRawBufferPointer(buffer), count: size, at: 0, path: path)
      } catch {
        failure = error
        initialized = 0
      }
    }
    if let failure { throw failure }
    return bytes
  }

  /// The whole contents of the file at `path`.
  package static func readAll(path: String) throws(SystemFailure) -> [UInt8] {
    let fd = try open(path, O_RDONLY)
    defer { close(fd) }
    return try readAll(fd, path: path)
  }

  package static func fileSize(_ fd: Int32, path: String) throws(SystemFailure) -> Int {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .last("fstat", path: path) }
    return Int(info.st_size)
  }

  /// The device and inode of `fd`'s file, to recognise it later.
  package static func identity(_ fd: Int32, path: String) throws(SystemFailure) -> FileIdentity {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .last("fstat", path: path) }
    return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// Flushes `fd`'s data, and the metadata needed to read it back (its size),
  /// to the device.
  package static func syncData(_ fd: Int32, path: String) throws(SystemFailure) {
    // fdatasync is not retried on EINTR like the other calls: it is not
    // interruptible on Linux, and a failure must never be retried anyway.
    guard fdatasync(fd) == 0 else { throw .last("fdatasync", path: path) }
  }

  /// Flushes `fd`'s data and all its metadata.
  package static func syncAll(_ fd: Int32, path: String) throws(SystemFailure) {
    guard fsync(fd) == 0 else { throw .last("fsync", path: path) }
  }

  /// Makes the directory's entries (created, renamed, removed files) durable.
  package static func syncDirectory(_ path: String) throws(SystemFailure) {
    let fd = try open(path, O_RDONLY | O_DIRECTORY)
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw .last("fsync of the directory", path: path) }
  }

  package static func truncate(_ fd: Int32, to length: Int, path: String) throws(SystemFailure) {
    while ftruncate(fd, off_t(length)) != 0 {
      if errno != EINTR { throw .last("ftruncate to \(length) bytes", path: path) }
    }
  }

  /// Creates the file `path`, which must not exist, with `bytes`, and
  /// syncs it (its directory's entry is the caller's to sync).
  package static func createSynced(_ path: String, with bytes: [UInt8]) throws(SystemFailure) {
    let fd = try open(path, O_WRONLY | O_CREAT | O_EXCL)
    defer { close(fd) }
    try writeAll(bytes, to: fd, path: path)
    try syncAll(fd, path: path)
  }

  package static func rename(_ from: String, to: String) throws(SystemFailure) {
    guard Glibc.rename(from, to) == 0 else { throw .last("rename to \(to)", path: from) }
  }

  package static func remove(_ path: String) throws(SystemFailure) {
    guard unlink(path) == 0 else { throw .last("unlink", path: path) }
  }

  package static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// Creates the directory `path` (its parent must exist) and makes the new
  /// entry durable; does nothing if it exists.
  package static func makeDirectory(_ path: String) throws(SystemFailure) {
    if mkdir(path, directoryMode) == 0 {
      try syncDirectory(parent(of: path))
      return
    }
    guard errno == EEXIST else { throw .last("mkdir", path: path) }
    var info = stat()
    guard stat(path, &info) == 0 else { throw .last("stat", path: path) }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw SystemFailure("mkdir", path: path, code: ENOTDIR) }
  }

  /// The names in directory `path`, without `.` and `..`.
  package static func list(_ path: String) throws(SystemFailure) -> [String] {
    guard let directory = opendir(path) else { throw .last("opendir", path: path) }
    defer { closedir(directory) }
    var names: [String] = []
    while true {
      errno = 0
      guard let entry = readdir(directory) else {
        if errno != 0 { throw .last("readdir", path: path) }
        return names
      }
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
  }

  /// The bytes the files under `path` take on disk (their allocated blocks,
  /// not their lengths), the directories themselves included; 0 when `path`
  /// does not exist.
  /// Symbolic links are not followed.
  package static func bytesOnDisk(_ path: String) throws(SystemFailure) -> Int {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return 0 }
      throw .last("lstat", path: path)
    }
    var bytes = Int(info.st_blocks) * 512
    guard info.st_mode & S_IFMT == S_IFDIR else { return bytes }
    for name in try list(path) { bytes += try bytesOnDisk(path + "/" + name) }
    return bytes
  }

  /// The directory containing `path` (`.` for a bare name).
  package static func parent(of path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
    if slash == path.utf8.startIndex { return "/" }
    return String(path[..<slash])
  }
}

/// A file's device and inode numbers: the same pair is the same file, however
/// it is named.
package struct FileIdentity: Sendable, Hashable {
  package let device: UInt64
  package let inode: UInt64
}
