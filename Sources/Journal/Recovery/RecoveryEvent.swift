/// One thing recovery found or did, for the daemon to log.
///
/// Warnings (``isWarning``) mean data was set aside: a torn tail, or, with
/// `repair`, damaged records or an unreadable snapshot. Nothing is ever
/// deleted: each names the file the bytes were moved or copied to.
public enum RecoveryEvent: Sendable, Hashable, CustomStringConvertible {
  /// The newest segment ended in a record cut short by a crash (or bytes the
  /// kernel never wrote). The bytes were copied to `savedTo` and cut off.
  case tornTailCut(TornTail)
  /// A repair moved damaged data and everything after it aside.
  case damageMovedAside(DroppedData)
  /// A repair moved an unreadable snapshot aside and recovered from an older
  /// base, the journal holding every version after it.
  case snapshotMovedAside(path: String, movedTo: String, reason: String)
  /// A segment whose records are all older than the snapshot: it was not
  /// read, and the next snapshot's compaction removes it.
  case supersededSegment(path: String)
  /// A file left by an interrupted segment creation or snapshot (`.creating`,
  /// `.tmp`); never read, and replaced or removed by the next one.
  case interruptedFile(path: String)
  /// A file set aside by an earlier recovery (`.torn-…`, `.damaged…`): kept
  /// for a person to inspect or delete.
  case setAsideFile(path: String)

  /// Whether this is worth a warning in the daemon's log.
  public var isWarning: Bool {
    switch self {
    case .tornTailCut, .damageMovedAside, .snapshotMovedAside: true
    case .supersededSegment, .interruptedFile, .setAsideFile: false
    }
  }

  public var description: String {
    switch self {
    case .tornTailCut(let tail):
      return tail.description
    case .damageMovedAside(let dropped):
      return dropped.description
    case .snapshotMovedAside(let path, let movedTo, let reason):
      return "repair: the snapshot \(path) cannot be read (\(reason)); it was moved to \(movedTo) and the state "
        + "was rebuilt from an older base and the journal"
    case .supersededSegment(let path):
      return "\(path) holds only versions the snapshot covers; it was not read and will be removed by the next snapshot"
    case .interruptedFile(let path):
      return "\(path) is left from an interrupted write; it was ignored"
    case .setAsideFile(let path):
      return "\(path) was set aside by an earlier recovery; it is kept for inspection and may be deleted"
    }
  }
}

/// A torn record cut off the end of the newest segment.
public struct TornTail: Sendable, Hashable, CustomStringConvertible {
  /// The segment.
  public let path: String
  /// Where the torn record began: the segment's new length.
  public let offset: Int
  /// How many bytes were cut off.
  public let byteCount: Int
  /// The file holding exactly those bytes.
  public let savedTo: String
  /// Why the bytes are not a whole record.
  public let problem: String

  public var description: String {
    "the last record of \(path) was cut short by a crash (\(problem)): its \(byteCount) bytes from byte "
      + "\(offset) were saved to \(savedTo) and cut off; it had not been acknowledged"
  }
}

/// What a repair dropped from one file.
public struct DroppedData: Sendable, Hashable, CustomStringConvertible {
  /// The file the bytes came from.
  public let path: String
  /// The offset they started at (0 for a whole file).
  public let offset: Int
  /// How many bytes were dropped.
  public let byteCount: Int
  /// Where they are now.
  public let movedTo: String
  /// What was wrong at `offset` (for files after the damage, that they
  /// follow it).
  public let problem: String
  /// The versions of the whole records found in the dropped bytes, as ranges.
  public let readableVersions: [ClosedRange<UInt64>]

  public var description: String {
    let versions =
      readableVersions.isEmpty
      ? "no readable records"
      : "readable records of versions " + readableVersions.map(Self.text).joined(separator: ", ")
    return "repair: dropped \(byteCount) bytes of \(path) from byte \(offset) (\(problem)), holding \(versions); "
      + "moved to \(movedTo)"
  }

  static func text(_ range: ClosedRange<UInt64>) -> String {
    range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)…\(range.upperBound)"
  }

  /// `versions` (in any order) as the fewest sorted ranges.
  static func ranges(_ versions: [UInt64]) -> [ClosedRange<UInt64>] {
    var ranges: [ClosedRange<UInt64>] = []
    for version in versions.sorted() {
      if let last = ranges.last, last.upperBound &+ 1 == version || last.contains(version) {
        ranges[ranges.count - 1] = last.lowerBound...max(last.upperBound, version)
      } else {
        ranges.append(version...version)
      }
    }
    return ranges
  }
}
