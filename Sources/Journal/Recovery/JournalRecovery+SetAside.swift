import Glibc

extension JournalRecovery {
  /// Sets aside the record at `offset` of the segment `path` and everything
  /// after it, as a repair does with damage: the bytes from the record on
  /// are copied to a side file and cut off, and the later segments are moved
  /// aside; nothing is deleted.
  ///
  /// - Returns: what was dropped, one event per file.
  func setAside(segment path: String, offset: Int, problem: String) throws(JournalError) -> [RecoveryEvent] {
    let segments: [(firstVersion: UInt64, path: String)]
    do {
      segments = try DirectoryContents(directory: directory).segments
    } catch {
      throw .system(error)
    }
    guard let index = segments.firstIndex(where: { $0.path == path }) else {
      throw .changedSinceRecovery(path: path, reason: "it is no longer in the journal directory")
    }
    let (bytes, _) = try read(path)
    guard offset < bytes.count else {
      throw .changedSinceRecovery(
        path: path, reason: "it is \(bytes.count) bytes long, shorter than the record at byte \(offset)")
    }
    let readable = bytes.withUnsafeBytes { RecordReader.readableVersions(in: $0, from: offset) }
    var actions: [Action] = [
      .cutDamage(path: path, offset: offset, bytes: bytes[offset...], problem: problem, readable: readable)
    ]
    for later in segments[(index + 1)...] {
      actions.append(.moveSegmentAside(path: later.path, problem: "it follows the record set aside in \(path)"))
    }
    var report = RecoveryReport()
    try perform(actions, report: &report)
    return report.events
  }
}
