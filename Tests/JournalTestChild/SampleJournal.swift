import JSON
import Journal

/// The records the journal's tests and their child processes write: each is a
/// function of its version, so whoever reads them back can check every byte.
///
/// The state is `{"count": n, "log": [...]}`: record `v` replaces `count`
/// with `v` and, every third version, appends to `log` (so patches vary in
/// size and operation).
public enum SampleJournal {
  /// The state at version 0.
  public static let initialState: JSONValue = .object(["count": .int(0), "log": .array([])])

  /// The record of `version`.
  public static func record(_ version: UInt64) -> JournalRecord {
    var patch: [JSONValue] = [
      .object(["op": .string("replace"), "path": .string("/count"), "value": .int(Int(version))])
    ]
    if version % 3 == 0 {
      patch.append(.object(["op": .string("add"), "path": .string("/log/-"), "value": .string("entry \(version)")]))
    }
    return JournalRecord(
      version: version, time: 1_700_000_000_000 + Int64(version),
      origin: .object(["client": .string("tcactl"), "connection": .int(Int(version % 5))]),
      action: .object(["counter": .object(["add": .int(Int(version))])]),
      patch: .array(patch))
  }

  /// The records of `versions`.
  public static func records(_ versions: ClosedRange<UInt64>) -> [JournalRecord] {
    versions.map(record)
  }

  /// The state at `version`.
  public static func state(at version: UInt64) -> JSONValue {
    .object([
      "count": .int(Int(version)),
      "log": .array(stride(from: 3, through: Int(version), by: 3).map { .string("entry \($0)") }),
    ])
  }
}
