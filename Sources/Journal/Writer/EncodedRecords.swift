import JSON

/// Records framed as the journal writes them, one after another, ready for
/// one write (``JournalWriter/write(_:)-(EncodedRecords)``).
///
/// The daemon encodes each action's record here as the action is published,
/// from the canonical bytes it already has, and writes the batch's bytes at
/// the commit as they are: no record is kept as a value per action in
/// between, unless something reads it as one (the log's followers, the
/// replicated log).
public struct EncodedRecords: Sendable {
  /// The records' headers and payloads (docs/DURABILITY.md, "On-disk
  /// format").
  public private(set) var bytes: [UInt8]
  /// The version of the first record; nil while there is none.
  public private(set) var firstVersion: UInt64?
  /// How many records there are.
  public private(set) var count = 0
  /// The first record whose version did not follow the one before it: its
  /// index and version. The writer refuses the whole batch then.
  private(set) var outOfSequence: (index: Int, version: UInt64)?
  /// The largest payload, and the version of its record.
  private(set) var largest: (version: UInt64, bytes: Int)?

  /// No records, in `buffer`'s storage (emptied): a caller that encodes one
  /// batch after another passes the last one's, so that its capacity is
  /// reused.
  public init(reusing buffer: [UInt8] = []) {
    bytes = buffer
    bytes.removeAll(keepingCapacity: true)
  }

  public var isEmpty: Bool { count == 0 }

  /// Appends the record of `version` made of the canonical JSON of its
  /// action, origin and patch (``CanonicalJSON``), which are copied as they
  /// are: they must be canonical, as the journal's readers expect.
  public mutating func append(
    version: UInt64, time: Int64, action: [UInt8], inputs: JSONValue?, origin: RecordOrigin, patch: [UInt8]
  ) {
    let length = RecordFormat.append(
      version: version, time: time, action: action, inputs: inputs, origin: origin, patch: patch, to: &bytes)
    note(version: version, length: length)
  }

  /// Appends `record`, from its canonical bytes where it has them.
  public mutating func append(_ record: JournalRecord) {
    let length = RecordFormat.append(record, to: &bytes)
    note(version: record.version, length: length)
  }

  private mutating func note(version: UInt64, length: Int) {
    if let firstVersion {
      if outOfSequence == nil, version != firstVersion &+ UInt64(count) {
        outOfSequence = (count, version)
      }
    } else {
      firstVersion = version
    }
    if length > largest?.bytes ?? -1 { largest = (version, length) }
    count += 1
  }
}
