/// Records framed as a journal segment frames them (``RecordFormat``: a
/// length, a checksum of the payload, a check of the header, the canonical
/// JSON), for carrying a batch elsewhere and reading it back whole: the
/// replicated log stores a batch in these bytes, and a follower checks every
/// record's checksum before it applies one.
public enum JournalFrames {
  /// The frames of `records`, in order.
  public static func encode(_ records: some Sequence<JournalRecord>) -> [UInt8] {
    var bytes: [UInt8] = []
    for record in records { RecordFormat.append(record, to: &bytes) }
    return bytes
  }

  /// The records framed in `bytes`, which must hold whole frames and
  /// nothing else.
  ///
  /// - Throws: ``JournalError/undecodableRecord(path:offset:reason:)`` with
  ///   `source` as the path, naming the byte where the frames stop making
  ///   sense and why.
  public static func decode(_ bytes: [UInt8], source: String) throws(JournalError) -> [JournalRecord] {
    var scanned: [ScannedRecord] = []
    let failure = bytes.withUnsafeBytes { buffer -> (offset: Int, problem: RecordProblem)? in
      var offset = 0
      while offset < buffer.count {
        do throws(RecordProblem) {
          let record = try RecordReader.record(in: buffer, at: offset)
          scanned.append(record)
          offset = record.end
        } catch {
          return (offset, error)
        }
      }
      return nil
    }
    if let failure {
      throw .undecodableRecord(path: source, offset: failure.offset, reason: failure.problem.description)
    }
    var records: [JournalRecord] = []
    records.reserveCapacity(scanned.count)
    for record in scanned {
      let entry = JournalEntry(
        version: record.version, time: record.layout.time, path: source, offset: record.offset,
        payload: bytes[record.payloadOffset..<record.end], format: JournalFormat.current,
        patchRange: record.layout.patch)
      records.append(try entry.decoded())
    }
    return records
  }
}
