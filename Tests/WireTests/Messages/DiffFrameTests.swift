import JSON
import Testing
import Wire

/// The diff frame root subscribers get, and its size counted without
/// writing it (what the diff history charges when no one subscribes).
@Suite struct DiffFrameTests {
  @Test(arguments: [
    "counter.incrementButtonTapped", "", "search.textChanged \"cats\"", "a\\b\nc\td\u{01}e", "café ☕︎",
  ])
  func theCountedSizeIsTheWrittenOne(summary: String) throws {
    let action = CanonicalJSON.encode(.object(["counter": .string("incrementButtonTapped")]))
    let patch = CanonicalJSON.encode(
      .array([.object(["op": .string("replace"), "path": .string("/counter/count"), "value": .int(1)])]))
    let summaryJSON = CanonicalJSON.encode(.string(summary))
    for version: UInt64 in [0, 7, 10, 99, 1_000_000, UInt64(Int.max)] {
      let frame = MessageCodec.diffFrame(version: version, action: action, summary: summaryJSON, patch: patch)
      #expect(
        MessageCodec.diffFrameCount(version: version, action: action, summary: summaryJSON, patch: patch)
          == frame.count, "version \(version)")
      guard case .object(let payload) = try JSONParser.parse(Array(frame[4...])) else {
        Issue.record("a diff frame's payload is not an object")
        return
      }
      #expect(payload["summary"] == .string(summary))
      #expect(payload["version"] == .int(Int(version)))
    }
  }
}
