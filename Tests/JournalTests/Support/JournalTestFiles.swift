import Foundation
import Glibc
import Journal
import JournalTestChild
import TestSupport

extension TemporaryDirectory {
  /// The journal directory inside it.
  var journal: String { path + "/journal" }

  /// A path inside it.
  func file(_ name: String) -> String { appending(name) }
}

struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Files and bytes.
enum Files {
  static func read(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  static func write(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  static func names(in directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
  }

  static func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
  }

  /// Every file of `directory` with its bytes, for comparing before and after.
  static func contents(of directory: String) throws -> [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    for name in try names(in: directory) where name != "lock" {
      result[name] = try read(directory + "/" + name)
    }
    return result
  }

  /// Truncates the file at `path` to `length` bytes.
  static func truncate(_ path: String, to length: Int) throws {
    guard Glibc.truncate(path, off_t(length)) == 0 else { throw TestFailure("truncate \(path): errno \(errno)") }
  }
}

/// Writing sample journals.
enum Journals {
  /// A journal in `directory` holding versions `1...last`, appended in batches
  /// of `batch`, with `configuration`; the writer is closed.
  @discardableResult
  static func write(
    _ directory: String, through last: UInt64, batch: Int = 10,
    configuration: JournalWriter.Configuration = .init(), epoch: String = "test"
  ) throws -> [String] {
    let journal = try JournalDirectory(path: directory)
    let recovered = try journal.recover()
    let writer = try journal.openWriter(after: recovered, epoch: epoch, configuration: configuration)
    var next = recovered.lastVersion + 1
    while next <= last {
      let end = min(last, next + UInt64(batch) - 1)
      try writer.append(SampleJournal.records(next...end))
      next = end + 1
    }
    try writer.close()
    return try segments(in: directory)
  }

  /// The segment files of `directory`, oldest first.
  static func segments(in directory: String) throws -> [String] {
    try Files.names(in: directory).filter { $0.hasSuffix(".journal") }.map { directory + "/" + $0 }
  }

  /// Recovers `directory` and decodes every record.
  static func recover(_ directory: String, repair: Bool = false) throws -> (RecoveredJournal, [JournalRecord]) {
    let journal = try JournalDirectory(path: directory)
    let recovered = try journal.recover(repair: repair)
    return (recovered, try recovered.records.map { try $0.decoded() })
  }

  /// The offsets at which each record of the segment at `path` starts, and
  /// the header's length.
  static func recordOffsets(_ path: String) throws -> [Int] {
    let bytes = try Files.read(path)
    let epochLength = Int(bytes[20]) << 8 | Int(bytes[21])
    var offset = 22 + epochLength + 4
    var offsets: [Int] = []
    while offset + 12 <= bytes.count {
      offsets.append(offset)
      let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      offset += 12 + length
    }
    return offsets
  }
}
