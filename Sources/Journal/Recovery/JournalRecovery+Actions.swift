import Glibc
import Platform

extension JournalRecovery {
  /// Carries out the changes recovery decided on, each durable before the
  /// next: bytes are copied to their side file and synced (and the directory
  /// synced) before the segment is cut, so a crash in between loses nothing;
  /// the next recovery finds the same tail again and reuses the side file.
  func perform(_ actions: [Action], report: inout RecoveryReport) throws(JournalError) {
    guard !actions.isEmpty else { return }
    do {
      for action in actions {
        switch action {
        case .cutTornTail(let path, let offset, let bytes, let problem):
          let savedTo = try saveAside(bytes, of: path, suffix: ".torn-\(offset)")
          try cut(path, at: offset)
          report.events.append(
            .tornTailCut(
              TornTail(path: path, offset: offset, byteCount: bytes.count, savedTo: savedTo, problem: problem)))
        case .cutDamage(let path, let offset, let bytes, let problem, let readable):
          let movedTo = try saveAside(bytes, of: path, suffix: ".damaged-\(offset)")
          try cut(path, at: offset)
          report.events.append(
            .damageMovedAside(
              DroppedData(
                path: path, offset: offset, byteCount: bytes.count, movedTo: movedTo, problem: problem,
                readableVersions: DroppedData.ranges(readable))))
        case .moveSegmentAside(let path, let problem):
          let bytes = try FileIO.readAll(path: path)
          let readable = bytes.withUnsafeBytes { buffer in
            let start = (try? SegmentHeader.decode(buffer).length) ?? 0
            return RecordReader.readableVersions(in: buffer, from: start)
          }
          let movedTo = JournalFileName.unused(path, suffix: ".damaged")
          try FileIO.rename(path, to: movedTo)
          report.events.append(
            .damageMovedAside(
              DroppedData(
                path: path, offset: 0, byteCount: bytes.count, movedTo: movedTo, problem: problem,
                readableVersions: DroppedData.ranges(readable))))
        case .moveSnapshotAside(let path, let reason):
          let movedTo = JournalFileName.unused(path, suffix: ".damaged")
          try FileIO.rename(path, to: movedTo)
          report.events.append(.snapshotMovedAside(path: path, movedTo: movedTo, reason: reason))
        }
      }
      try FileIO.syncDirectory(directory)
    } catch {
      throw .system(error)
    }
  }

  /// Copies `bytes` to `path + suffix` (or a numbered variant) and makes the
  /// copy durable; reuses an existing side file that holds exactly `bytes`.
  ///
  /// - Returns: the side file's path.
  private func saveAside(_ bytes: ArraySlice<UInt8>, of path: String, suffix: String) throws(SystemFailure) -> String {
    let preferred = path + suffix
    if let existing = try? FileIO.readAll(path: preferred), existing.elementsEqual(bytes) {
      return preferred
    }
    let target = JournalFileName.unused(path, suffix: suffix)
    let fd = try FileIO.open(target, O_WRONLY | O_CREAT | O_EXCL)
    defer { FileIO.close(fd) }
    try FileIO.writeAll(Array(bytes), to: fd, path: target)
    try FileIO.syncAll(fd, path: target)
    try FileIO.syncDirectory(directory)
    return target
  }

  /// Cuts the file at `path` to `length` bytes, durably.
  private func cut(_ path: String, at length: Int) throws(SystemFailure) {
    let fd = try FileIO.open(path, O_WRONLY)
    defer { FileIO.close(fd) }
    try FileIO.truncate(fd, to: length, path: path)
    try FileIO.syncAll(fd, path: path)
  }
}
