import Platform

/// The names of the files in a journal directory.
///
/// Versions in names are 20-digit zero-padded decimals (the width of
/// `UInt64.max`), so that names sort in version order:
///
/// | name | what |
/// |---|---|
/// | `00000000000000000001.journal` | a segment; its first record is version 1 |
/// | `00000000000000000001.journal.creating` | a segment being created (header only) |
/// | `snapshot-00000000000000000042.snapshot` | the state at version 42 |
/// | `snapshot-00000000000000000042.snapshot.tmp` | a snapshot being written |
/// | `….journal.torn-<offset>` | the bytes of a torn tail cut off at `<offset>` |
/// | `….journal.damaged-<offset>` | bytes from `<offset>` moved aside by a repair |
/// | `….journal.damaged`, `….snapshot.damaged` | whole files moved aside by a repair |
/// | `lock` | the `flock` of the process that owns the journal |
///
/// Files moved aside are never read or removed by the library: they are
/// evidence for a person to inspect.
enum JournalFileName: Hashable, Sendable {
  case segment(firstVersion: UInt64)
  case segmentBeingCreated(firstVersion: UInt64)
  case snapshot(version: UInt64)
  case snapshotBeingWritten(version: UInt64)
  /// Anything moved aside (torn tails and repaired damage).
  case setAside
  case lock
  /// A name the journal does not use; left alone.
  case other

  static let segmentSuffix = ".journal"
  static let creatingSuffix = ".creating"
  static let snapshotPrefix = "snapshot-"
  static let snapshotSuffix = ".snapshot"
  static let temporarySuffix = ".tmp"

  static func segment(_ firstVersion: UInt64) -> String {
    padded(firstVersion) + segmentSuffix
  }

  static func snapshot(_ version: UInt64) -> String {
    snapshotPrefix + padded(version) + snapshotSuffix
  }

  /// `version` as 20 decimal digits.
  static func padded(_ version: UInt64) -> String {
    let digits = String(version)
    return String(repeating: "0", count: 20 - digits.utf8.count) + digits
  }

  /// What the file named `name` is.
  init(_ name: String) {
    if name == DirectoryLock.fileName {
      self = .lock
    } else if name.contains(".torn-") || name.contains(".damaged") {
      self = .setAside
    } else if let version = Self.version(in: name, prefix: "", suffix: Self.segmentSuffix) {
      self = .segment(firstVersion: version)
    } else if let version = Self.version(in: name, prefix: "", suffix: Self.segmentSuffix + Self.creatingSuffix) {
      self = .segmentBeingCreated(firstVersion: version)
    } else if let version = Self.version(in: name, prefix: Self.snapshotPrefix, suffix: Self.snapshotSuffix) {
      self = .snapshot(version: version)
    } else if let version = Self.version(
      in: name, prefix: Self.snapshotPrefix, suffix: Self.snapshotSuffix + Self.temporarySuffix)
    {
      self = .snapshotBeingWritten(version: version)
    } else {
      self = .other
    }
  }

  /// The version in `prefix` + 20 digits + `suffix`, or `nil`.
  private static func version(in name: String, prefix: String, suffix: String) -> UInt64? {
    let utf8 = Array(name.utf8)
    let prefixBytes = Array(prefix.utf8)
    let suffixBytes = Array(suffix.utf8)
    guard utf8.count == prefixBytes.count + 20 + suffixBytes.count,
      utf8.starts(with: prefixBytes), utf8.suffix(suffixBytes.count).elementsEqual(suffixBytes)
    else { return nil }
    let digits = utf8[prefixBytes.count..<prefixBytes.count + 20]
    guard digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
    return UInt64(String(decoding: digits, as: UTF8.self))
  }

  /// A name for moving `path` aside with `suffix` that no file has yet:
  /// `path + suffix`, else with `.1`, `.2`, … appended.
  static func unused(_ path: String, suffix: String) -> String {
    let base = path + suffix
    guard FileIO.exists(base) else { return base }
    var counter = 1
    while FileIO.exists(base + ".\(counter)") { counter += 1 }
    return base + ".\(counter)"
  }
}
