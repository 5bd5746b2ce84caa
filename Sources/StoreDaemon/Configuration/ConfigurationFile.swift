import FoundationEssentials
import Glibc
import Platform
import Wire

/// The configuration file's format: one `name = value` per line; blank lines
/// and lines starting with `#` are ignored; the value runs to the end of the
/// line with surrounding spaces trimmed (docs/CLI.md, "Feature settings").
enum ConfigurationFile {
  struct Entry: Equatable {
    let line: Int
    let key: String
    let value: String
  }

  /// The text of the settings file at `path`; nil when `path` does not exist
  /// and `required` is false.
  ///
  /// Settings decide where the features send their requests and with which
  /// key, so a file another user could have written is refused: it must be a
  /// regular file (a FIFO would block the start) owned by this user or root
  /// and writable by no one else.
  ///
  /// - Throws: ``UsageError`` naming the file and what is wrong with it.
  static func read(_ path: String, required: Bool) throws(UsageError) -> String? {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      if errno == ENOENT && !required { return nil }
      throw UsageError("cannot read the settings file '\(path)': \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw UsageError("cannot read the settings file '\(path)': \(String(cString: strerror(errno)))")
    }
    let fix = "make it a file of this user's (or root's) with mode 0600, or remove it"
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw UsageError("the settings file '\(path)' is not a regular file; \(fix)")
    }
    let mode = "mode 0" + String(info.st_mode & 0o777, radix: 8)
    guard info.st_uid == geteuid() || info.st_uid == 0 else {
      throw UsageError(
        "the settings file '\(path)' belongs to \(DaemonUser.name(info.st_uid)), not to this user "
          + "(\(DaemonUser.name(geteuid()))) or root, so it was not read; \(fix)")
    }
    guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
      throw UsageError(
        "the settings file '\(path)' may be written by \(info.st_mode & S_IWOTH != 0 ? "others" : "its group") "
          + "(\(mode)), so it was not read; \(fix)")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = Glibc.read(fd, &chunk, chunk.count)
      if count == 0 { break }
      if count < 0 {
        if errno == EINTR { continue }
        throw UsageError("cannot read the settings file '\(path)': \(String(cString: strerror(errno)))")
      }
      bytes += chunk[..<count]
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw UsageError("the settings file '\(path)' is not UTF-8 text")
    }
    return text
  }

  /// The file's entries; throws naming the line of the first malformed one.
  static func parse(_ text: String, path: String) throws(UsageError) -> [Entry] {
    var entries: [Entry] = []
    var seen: [String: Int] = [:]
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = rawLine.trimmingBlanks
      if line.isEmpty || line.hasPrefix("#") { continue }
      guard let equals = line.firstIndex(of: "=") else {
        throw UsageError("\(path):\(index + 1): expected 'name = value', got '\(line)'")
      }
      let key = line[..<equals].trimmingBlanks
      let value = line[line.index(after: equals)...].trimmingBlanks
      guard !key.isEmpty else { throw UsageError("\(path):\(index + 1): a setting needs a name before '='") }
      if let first = seen[key] {
        throw UsageError("\(path):\(index + 1): '\(key)' is already set on line \(first)")
      }
      seen[key] = index + 1
      entries.append(Entry(line: index + 1, key: key, value: value))
    }
    return entries
  }
}

extension StringProtocol {
  /// Without the spaces and tabs (and other blanks, but not line breaks) at
  /// either end.
  fileprivate var trimmingBlanks: String {
    let isBlank = { (character: Character) in character.isWhitespace && !character.isNewline }
    return String(drop(while: isBlank).reversed().drop(while: isBlank).reversed())
  }
}
