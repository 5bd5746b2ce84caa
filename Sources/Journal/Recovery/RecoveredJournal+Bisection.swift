import JSON

extension RecoveredJournal {
  /// The record that first turns a state `accepts` takes into one it refuses:
  /// for a replayed state that the app cannot decode, the record to blame,
  /// rather than the snapshot it started from.
  ///
  /// Finds it by bisection from the base state (which `accepts` must take)
  /// to the state after every record (which it must refuse), keeping the
  /// last accepted state: each record's patch is applied about once and
  /// `accepts` called about log2(count) times.
  ///
  /// - Returns: nil when `accepts` takes the state after every record.
  /// - Throws: what replaying throws (``JournalError/patchDoesNotApply(version:path:offset:reason:)``).
  public func firstRecord(
    refusedBy accepts: (JSONValue) -> Bool, initialState: JSONValue
  ) throws(JournalError) -> JournalEntry? {
    var good = 0
    var goodState = snapshot?.state ?? initialState
    var bad = records.count
    guard bad > 0, !accepts(try Replay.apply(records, to: goodState)) else { return nil }
    while bad - good > 1 {
      let middle = good + (bad - good) / 2
      let state = try Replay.apply(records[good..<middle], to: goodState)
      if accepts(state) {
        good = middle
        goodState = state
      } else {
        bad = middle
      }
    }
    return records[bad - 1]
  }

  /// The record at byte `offset` of the segment `path`, if recovery read one there.
  public func record(at path: String, offset: Int) -> JournalEntry? {
    records.first { $0.path == path && $0.offset == offset }
  }
}
