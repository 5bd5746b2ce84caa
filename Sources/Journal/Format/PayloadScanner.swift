import Glibc
import JSON

/// Where the members of a record's payload are, found without building JSON
/// values: recovery reads a million records by checking each payload's
/// syntax and noting the byte ranges of `action`, `inputs`, `origin` and `patch`, which
/// are parsed only when a caller asks for them.
struct PayloadLayout: Hashable, Sendable {
  var version: UInt64
  var time: Int64
  /// Byte ranges within the payload.
  var action: Range<Int>
  /// Absent when the reducer drew nothing.
  var inputs: Range<Int>?
  var origin: Range<Int>
  var patch: Range<Int>
}

/// A single pass over a payload's bytes that checks its JSON syntax (with no
/// allocation, ``JSONScanner``) and finds the record's members.
///
/// A record whose checksum matches was written by the journal from canonical
/// JSON, so what the scanner leaves to `JSONParser` (UTF-8 validity,
/// duplicate keys inside nested values, number ranges) cannot fail when a
/// member is decoded unless the writer had a bug.
enum PayloadScanner {
  /// Why a payload is not a record: what was expected at which byte.
  struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
    let offset: Int
    let message: String
    var description: String { "\(message) at byte \(offset) of the payload" }
  }

  /// The layout of the payload `bytes`.
  static func scan(_ bytes: UnsafeRawBufferPointer) throws(Problem) -> PayloadLayout {
    var scanner = JSONScanner(bytes)
    do {
      return try scanRecord(&scanner)
    } catch {
      throw Problem(offset: error.offset, message: error.message)
    }
  }

  private static func scanRecord(_ scanner: inout JSONScanner) throws(JSONScanner.Problem) -> PayloadLayout {
    typealias Problem = JSONScanner.Problem
    scanner.skipWhitespace()
    try scanner.expect(UInt8(ascii: "{"), "'{' to open the record")
    var version: UInt64?
    var time: Int64?
    var action: Range<Int>?
    var inputs: Range<Int>?
    var origin: Range<Int>?
    var patch: Range<Int>?
    scanner.skipWhitespace()
    if scanner.peek() == UInt8(ascii: "}") {
      throw scanner.problem("the members action, origin, patch, time and version")
    }
    while true {
      scanner.skipWhitespace()
      let keyStart = scanner.position
      guard scanner.peek() == UInt8(ascii: "\"") else { throw scanner.problem("'\"' to begin a member name") }
      let key = try scanner.skipString()
      scanner.skipWhitespace()
      try scanner.expect(UInt8(ascii: ":"), "':' after the member name")
      scanner.skipWhitespace()
      let valueStart = scanner.position
      switch Member(key) {
      case .version:
        guard version == nil else { throw Problem(offset: keyStart, message: "a second \"version\"") }
        version = try scanner.scanUnsigned()
      case .time:
        guard time == nil else { throw Problem(offset: keyStart, message: "a second \"time\"") }
        time = try scanner.scanSigned()
      case .action:
        guard action == nil else { throw Problem(offset: keyStart, message: "a second \"action\"") }
        try scanner.skipValue()
        action = valueStart..<scanner.position
      case .inputs:
        guard inputs == nil else { throw Problem(offset: keyStart, message: "a second \"inputs\"") }
        try scanner.skipValue()
        inputs = valueStart..<scanner.position
      case .origin:
        guard origin == nil else { throw Problem(offset: keyStart, message: "a second \"origin\"") }
        try scanner.skipValue()
        origin = valueStart..<scanner.position
      case .patch:
        guard patch == nil else { throw Problem(offset: keyStart, message: "a second \"patch\"") }
        try scanner.skipValue()
        patch = valueStart..<scanner.position
      case nil:
        try scanner.skipValue()
      }
      scanner.skipWhitespace()
      guard let byte = scanner.peek() else { throw scanner.problem("',' or '}'") }
      if byte == UInt8(ascii: "}") {
        scanner.position += 1
        break
      }
      try scanner.expect(UInt8(ascii: ","), "',' or '}'")
    }
    scanner.skipWhitespace()
    guard scanner.isAtEnd else { throw scanner.problem("the end of the payload after the record") }
    guard let version else { throw Problem(offset: 0, message: "the record has no \"version\"") }
    guard let time else { throw Problem(offset: 0, message: "the record has no \"time\"") }
    guard let action else { throw Problem(offset: 0, message: "the record has no \"action\"") }
    guard let origin else { throw Problem(offset: 0, message: "the record has no \"origin\"") }
    guard let patch else { throw Problem(offset: 0, message: "the record has no \"patch\"") }
    return PayloadLayout(version: version, time: time, action: action, inputs: inputs, origin: origin, patch: patch)
  }

  /// The members the journal reads.
  private enum Member {
    case action, inputs, origin, patch, time, version

    init?(_ key: UnsafeRawBufferPointer) {
      // Compared with memcmp: this runs once per member of a million records.
      switch key.count {
      case 4 where Self.equal(key, "time"): self = .time
      case 5 where Self.equal(key, "patch"): self = .patch
      case 6 where Self.equal(key, "action"): self = .action
      case 6 where Self.equal(key, "inputs"): self = .inputs
      case 6 where Self.equal(key, "origin"): self = .origin
      case 7 where Self.equal(key, "version"): self = .version
      default: return nil
      }
    }

    private static func equal(_ key: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
      // invariant: called only when key.count is the name's, which is not zero: the buffer is not empty
      memcmp(key.baseAddress!, name.utf8Start, name.utf8CodeUnitCount) == 0
    }
  }
}
