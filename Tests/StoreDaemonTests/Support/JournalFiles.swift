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
