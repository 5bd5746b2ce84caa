/// How replies are delimited on a connection, so a load generator can count
/// them without decoding them.
enum Framing {
  /// storedaemon's frames: a 4-byte big-endian length, then the payload.
  case frames
  /// Redis's RESP: one reply per simple string, error, integer, bulk string
  /// or array (counted whole, elements included).
  case resp

  /// The length of the complete reply that starts at `start`, or nil if
  /// `buffer` does not hold all of it yet.
  func replyLength(in buffer: [UInt8], at start: Int) -> Int? {
    switch self {
    case .frames:
      guard buffer.count - start >= 4 else { return nil }
      let length =
        Int(buffer[start]) << 24 | Int(buffer[start + 1]) << 16 | Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
      return buffer.count - start >= 4 + length ? 4 + length : nil
    case .resp:
      return Self.respLength(buffer, start).map { $0 - start }
    }
  }

  /// The index just past the RESP value at `start`, if it is complete.
  private static func respLength(_ buffer: [UInt8], _ start: Int) -> Int? {
    guard start < buffer.count, let lineEnd = lineEnd(buffer, start) else { return nil }
    switch buffer[start] {
    case UInt8(ascii: "$"):
      let length = integer(buffer, start + 1, lineEnd)
      if length < 0 { return lineEnd + 2 }
      let end = lineEnd + 2 + length + 2
      return end <= buffer.count ? end : nil
    case UInt8(ascii: "*"):
      let count = integer(buffer, start + 1, lineEnd)
      var next = lineEnd + 2
      for _ in 0..<max(count, 0) {
        guard let end = respLength(buffer, next) else { return nil }
        next = end
      }
      return next
    default:
      return lineEnd + 2
    }
  }

  /// The index of the `\r` of the line starting at `start`, if it is complete.
  private static func lineEnd(_ buffer: [UInt8], _ start: Int) -> Int? {
    var index = start
    while index + 1 < buffer.count {
      if buffer[index] == UInt8(ascii: "\r") && buffer[index + 1] == UInt8(ascii: "\n") { return index }
      index += 1
    }
    return nil
  }

  private static func integer(_ buffer: [UInt8], _ start: Int, _ end: Int) -> Int {
    var value = 0
    var negative = false
    for index in start..<end {
      if buffer[index] == UInt8(ascii: "-") { negative = true } else { value = value * 10 + Int(buffer[index] &- 48) }
    }
    return negative ? -value : value
  }
}

/// What a storedaemon frame is, read from the end of its payload: the daemon
/// writes sorted keys, so `type` and `version` come last in every message
/// that has them (`…,"type":"diff","version":42}`). Reads the bytes in
/// place: a fan-out run classifies millions of frames.
struct FrameSummary: Equatable {
  var type: String
  var version: UInt64?

  private static let typeMarker = Array(#""type":""#.utf8)
  private static let versionMarker = Array(#","version":"#.utf8)

  /// The payload is `buffer[start..<end]`.
  init(_ buffer: [UInt8], _ start: Int, _ end: Int) {
    func matches(_ marker: [UInt8], at index: Int) -> Bool {
      guard index >= start, index + marker.count <= end else { return false }
      for offset in 0..<marker.count where buffer[index + offset] != marker[offset] { return false }
      return true
    }
    var index = end - Self.typeMarker.count
    while index >= start && !matches(Self.typeMarker, at: index) { index -= 1 }
    guard index >= start else {
      type = "?"
      return
    }
    var close = index + Self.typeMarker.count
    while close < end && buffer[close] != UInt8(ascii: "\"") { close += 1 }
    type = String(decoding: buffer[(index + Self.typeMarker.count)..<close], as: UTF8.self)
    if matches(Self.versionMarker, at: close + 1) {
      var value: UInt64 = 0
      var digit = close + 1 + Self.versionMarker.count
      while digit < end, buffer[digit] >= 48, buffer[digit] <= 57 {
        value = value * 10 + UInt64(buffer[digit] - 48)
        digit += 1
      }
      version = value
    }
  }
}
