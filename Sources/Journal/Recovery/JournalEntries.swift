import JSON

/// A record as stored: its version and time, already checked, and its
/// payload's bytes, decoded only on request.
///
/// Recovery reads a million records without building a million JSON trees:
/// it keeps the segments' bytes and a compact index, and the daemon decodes
/// what it needs — every patch to rebuild the state, the last few records in
/// full for its diff history.
public struct JournalEntry: Sendable, Hashable {
  public let version: UInt64
  /// Milliseconds since the Unix epoch.
  public let time: Int64
  /// The segment file holding the record.
  public let path: String
  /// The offset of the record's header in that file.
  public let offset: Int
  /// The payload's canonical JSON.
  public let payload: ArraySlice<UInt8>
  /// The format of the segment holding it (``JournalFormat``): the shape of
  /// the enums in its action and patch.
  public let format: UInt32
  /// Where the patch is in the payload, found when the record was read.
  let patchRange: Range<Int>

  /// The whole record.
  public func decoded() throws(JournalError) -> JournalRecord {
    let layout = try layout()
    return JournalRecord(
      version: version, time: time, origin: try parse(layout.origin, "origin"),
      action: try parse(layout.action, "action"),
      inputs: try layout.inputs.map { range throws(JournalError) in
        try parse(range, "inputs")
      }, patch: try parse(layout.patch, "patch"), format: format)
  }

  /// The record's patch alone (what replaying it needs).
  public func patch() throws(JournalError) -> JSONValue {
    try parse(patchRange, "patch")
  }

  /// The record's patch as operations, read straight from its bytes.
  func patchOperations(decoder: inout PatchDecoder) throws(JournalError) -> [PatchOperation] {
    let start = payload.startIndex
    let bytes = payload[start + patchRange.lowerBound..<start + patchRange.upperBound]
    if let operations = decoder.operations(bytes) { return operations }
    // Not in the form the journal writes: the general, slower path.
    let json = try patch()
    do {
      return try JSONPatch.operations(from: json)
    } catch {
      throw .patchDoesNotApply(version: version, path: path, offset: offset, reason: error.description)
    }
  }

  /// The record's action alone.
  public func action() throws(JournalError) -> JSONValue {
    try parse(try layout().action, "action")
  }

  private func layout() throws(JournalError) -> PayloadLayout {
    do {
      return try payload.withBytes { buffer throws(PayloadScanner.Problem) in try PayloadScanner.scan(buffer) }
    } catch {
      throw .undecodableRecord(path: path, offset: offset, reason: error.description)
    }
  }

  private func parse(_ range: Range<Int>, _ member: String) throws(JournalError) -> JSONValue {
    let start = payload.startIndex
    do {
      return try JSONParser.parse(payload[start + range.lowerBound..<start + range.upperBound])
    } catch {
      throw .undecodableRecord(path: path, offset: offset, reason: "its \"\(member)\": \(error)")
    }
  }
}

/// The records recovery found after the snapshot, in version order, as a
/// random-access collection of ``JournalEntry``.
///
/// Storage is the segments' bytes plus 40 bytes of index per record; an
/// entry is assembled when subscripted.
public struct JournalEntries: RandomAccessCollection, Sendable {
  /// One record's place in the segments' bytes.
  struct Slot: Sendable {
    var version: UInt64
    var time: Int64
    var payloadOffset: Int
    var payloadLength: UInt32
    var segment: UInt32
    /// The patch's range within the payload.
    var patchStart: UInt32
    var patchLength: UInt32

    init(_ record: ScannedRecord, segment: UInt32) {
      version = record.version
      time = record.layout.time
      payloadOffset = record.payloadOffset
      payloadLength = UInt32(record.payloadLength)
      self.segment = segment
      patchStart = UInt32(record.layout.patch.lowerBound)
      patchLength = UInt32(record.layout.patch.count)
    }
  }

  /// A segment's path and bytes.
  struct Segment: Sendable {
    var path: String
    var bytes: [UInt8]
    var format: UInt32
  }

  var slots: [Slot] = []
  var segments: [Segment] = []

  public var startIndex: Int { 0 }
  public var endIndex: Int { slots.count }

  public subscript(position: Int) -> JournalEntry {
    let slot = slots[position]
    let segment = segments[Int(slot.segment)]
    return JournalEntry(
      version: slot.version, time: slot.time, path: segment.path,
      offset: slot.payloadOffset - RecordFormat.headerLength,
      payload: segment.bytes[slot.payloadOffset..<slot.payloadOffset + Int(slot.payloadLength)],
      format: segment.format,
      patchRange: Int(slot.patchStart)..<Int(slot.patchStart) + Int(slot.patchLength))
  }

  /// The entry of `version`, if held.
  public func entry(version: UInt64) -> JournalEntry? {
    guard let first = slots.first, version >= first.version, version - first.version < UInt64(slots.count) else {
      return nil
    }
    return self[Int(version - first.version)]
  }
}
