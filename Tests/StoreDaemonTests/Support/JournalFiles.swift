import Foundation

/// The files of a daemon's journal directory, for tests that damage or
/// compare them.
enum JournalFiles {
  /// The path of the newest segment in `directory`.
  static func lastSegment(in directory: String) throws -> String {
    let segments = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".journal") }
      .sorted()
    guard let last = segments.last else { throw DaemonTestError("no journal segment in \(directory)") }
    return directory + "/" + last
  }

  /// Every file of `directory` but the lock, by name, with its bytes.
  static func contents(of directory: String) throws -> [String: Data] {
    var contents: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name != "lock" {
      contents[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
    }
    return contents
  }
}

/// Sets the soft limit on the size of the files the process `pid` writes
/// (`RLIMIT_FSIZE`, with `prlimit`): `"unlimited"`, or a size in bytes, past
/// which its writes fail with `EFBIG`, as on a full disk.
func limitFileSize(of pid: pid_t, to size: String) throws {
  try setSoftLimit(of: pid, "--fsize=\(size):")
}

/// Sets the soft limit on the descriptors the process `pid` may have open
/// (`RLIMIT_NOFILE`, with `prlimit`): past it, opening or accepting one
/// fails with `EMFILE`.
func limitOpenFiles(of pid: pid_t, to count: String) throws {
  try setSoftLimit(of: pid, "--nofile=\(count):")
}

/// Runs `prlimit --pid PID OPTION`. Soft limits only: raising a hard limit
/// again needs `CAP_SYS_RESOURCE`.
private func setSoftLimit(of pid: pid_t, _ option: String) throws {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
  process.arguments = ["--pid", "\(pid)", option]
  try process.run()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else {
    throw DaemonTestError("prlimit \(option) failed with \(process.terminationStatus)")
  }
}
