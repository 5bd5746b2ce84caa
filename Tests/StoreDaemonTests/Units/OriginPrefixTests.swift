import JSON
import Testing

@testable import Journal
@testable import StoreDaemon

/// The journal writes a record's `origin` from bytes made once per client
/// and the origin's number: they must be the canonical JSON of the object.
@Suite struct OriginPrefixTests {
  @Test(
    arguments: [
      ["client": .string("tcactl"), "connection": .int(3)],
      ["client": .string("a \"quoted\" name\u{1}"), "connection": .int(0)],
      ["effect": .bool(true)],
    ] as [JSONObject])
  func theBytesAreTheCanonicalJSONOfTheObject(members: JSONObject) throws {
    let prefix = try #require(OriginPrefix(members))
    for origin in [0, 1, 42, Int.max] {
      var object = members
      object["origin"] = .int(origin)
      #expect(
        RecordOrigin.prefixed(prefix.bytes, origin: UInt64(origin)).canonicalBytes
          == CanonicalJSON.encode(.object(object)))
    }
  }

  /// A member that sorts after `origin` leaves no prefix: the journal then
  /// encodes the record's origin itself.
  @Test func aMemberAfterOriginLeavesNoPrefix() {
    #expect(OriginPrefix(["client": .string("c"), "zone": .int(1)]) == nil)
  }

  /// A record written with the bytes reads back as the one written without.
  @Test func aRecordWrittenWithTheBytesReadsTheSame() throws {
    let origin: JSONValue = .object(["client": .string("tcactl"), "connection": .int(3), "origin": .int(7)])
    let prefix = try #require(OriginPrefix(["client": .string("tcactl"), "connection": .int(3)]))
    let plain = JournalRecord(version: 1, time: 5, origin: origin, action: .string("a"), patch: .array([]))
    var fast = plain
    fast.canonicalOrigin = RecordOrigin.prefixed(prefix.bytes, origin: 7).canonicalBytes
    #expect(RecordFormat.encode(fast) == RecordFormat.encode(plain))
  }
}
