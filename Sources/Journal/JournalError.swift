import Platform

/// Why opening, recovering, snapshotting or reading a journal failed. Every
/// case names the file and, where it applies, the byte offset, and its
/// ``description`` says what to do. (Appends fail with ``JournalWriteError``.)
public enum JournalError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A system call failed.
  case system(SystemFailure)
  /// Another process (pid `holder`, if known) owns the journal directory.
  case locked(path: String, holder: Int32?)
  /// A file named like a journal segment or snapshot that is not one.
  case foreignFile(path: String, firstBytes: [UInt8])
  /// A segment or snapshot written in a newer format than this build reads.
  case unsupportedFormat(path: String, found: UInt32, supported: UInt32)
  /// Damage that is not a torn tail: the journal cannot be read past it
  /// without dropping records (``JournalDirectory/recover(repair:)`` with
  /// `repair: true` does so and reports what it dropped).
  case damaged(JournalDamage)
  /// A snapshot that cannot be read (checksum, header or JSON). It is left in
  /// place, untouched.
  case unreadableSnapshot(path: String, reason: String, repairAdvice: String)
  /// The journal's files changed between recovery and opening the writer.
  case changedSinceRecovery(path: String, reason: String)
  /// A call the library cannot carry out as asked (a bad epoch, a snapshot
  /// ahead of the journal); the message says which argument and why.
  case invalidArgument(String)
  /// A version older than anything the journal still holds.
  case versionNotRetained(requested: UInt64, oldestRetained: UInt64?)
  /// A version newer than the last one written.
  case versionNotWritten(requested: UInt64, last: UInt64)
  /// A record's patch does not apply to the state before it: the snapshot and
  /// the journal disagree.
  case patchDoesNotApply(version: UInt64, path: String, offset: Int, reason: String)
  /// A record whose checksum matches but whose JSON does not decode.
  case undecodableRecord(path: String, offset: Int, reason: String)

  public var description: String {
    switch self {
    case .system(let failure):
      return failure.description
    case .locked(let path, let holder):
      let who = holder.map { "process \($0)" } ?? "another process"
      return "the journal is in use by \(who) (it holds the lock on \(path)); "
        + "stop that daemon first, or give this one another state directory"
    case .foreignFile(let path, let firstBytes):
      return "\(path) is named like a journal file but is not one (it begins with \(hexBytes(firstBytes))); "
        + "move it out of the journal directory"
    case .unsupportedFormat(let path, let found, let supported):
      return "\(path) is in journal format \(found), written by a newer build of the daemon; this build reads "
        + "format \(supported) at most: run the newer build (the file is left as it is)"
    case .damaged(let damage):
      return damage.description
    case .unreadableSnapshot(let path, let reason, let advice):
      return "the snapshot \(path) cannot be read: \(reason). It is left untouched. \(advice)"
    case .changedSinceRecovery(let path, let reason):
      return "\(path) changed after the journal was recovered (\(reason)); recover again before writing"
    case .invalidArgument(let message):
      return message
    case .versionNotRetained(let requested, let oldest):
      guard let oldest else { return "version \(requested) is not in the journal: it holds no versions" }
      return "version \(requested) is no longer in the journal: it was compacted into a snapshot; "
        + "the oldest version kept is \(oldest)"
    case .versionNotWritten(let requested, let last):
      return "version \(requested) does not exist yet: the last version is \(last)"
    case .patchDoesNotApply(let version, let path, let offset, let reason):
      return "the patch of version \(version) (\(path), byte \(offset)) does not apply to the state before it: "
        + "\(reason). The snapshot and the journal disagree; move the snapshot aside to replay from an older "
        + "one, or restore both from a backup"
    case .undecodableRecord(let path, let offset, let reason):
      return "the record at byte \(offset) of \(path) has a valid checksum but does not decode: \(reason)"
    }
  }
}

/// Damage in a journal that recovery will not cut off on its own: a bad
/// record with valid records after it or outside the newest segment, a gap
/// or overlap in the versions, or a segment header that is not valid.
public struct JournalDamage: Sendable, Hashable, CustomStringConvertible {
  /// The damaged file.
  public let path: String
  /// The offset of the first bad byte (a record's header, or 0 for the
  /// segment header).
  public let offset: Int
  /// What is wrong there.
  public let problem: String
  /// The offset of a valid record found after the damage, which is why this
  /// is not a torn tail; `nil` when the damage is not in the newest segment
  /// or cannot be a torn write.
  public let validRecordAfter: Int?
  /// The last version before the damage (the snapshot's, or 0, if none).
  public let lastGoodVersion: UInt64

  public init(path: String, offset: Int, problem: String, validRecordAfter: Int?, lastGoodVersion: UInt64) {
    self.path = path
    self.offset = offset
    self.problem = problem
    self.validRecordAfter = validRecordAfter
    self.lastGoodVersion = lastGoodVersion
  }

  public var description: String {
    var text = "the journal is damaged at byte \(offset) of \(path): \(problem)"
    if let validRecordAfter {
      text += "; a valid record follows at byte \(validRecordAfter), so this is not a write cut short by a crash"
    }
    text += ". The records are intact up to version \(lastGoodVersion). "
    text += "Start the daemon with --repair to keep them and move the damaged rest aside "
    text += "(nothing is deleted; the report lists what was dropped), or restore the journal from a backup."
    return text
  }
}
