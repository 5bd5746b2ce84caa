import ComposableCore
import Features
import Testing
import Wire

@testable import StoreDaemon

@Suite struct SentActionMemoTests {
  static func entry(_ count: Int) -> SentActionMemo<AppFeature.Action>.Entry {
    SentActionMemo<AppFeature.Action>.Entry(
      action: .counter(.incrementButtonTapped), json: .int(count), canonical: Array("\(count)".utf8),
      summary: "entry \(count)")
  }

  @Test func aRepeatedInputIsReadOnceAndAFailureIsNeverKept() throws {
    var memo = SentActionMemo<AppFeature.Action>()
    var reads = 0
    let input = ClientMessage.ActionInput.path("counter.incrementButtonTapped", arguments: [])
    for _ in 0..<3 {
      let entry = try memo.entry(for: input) { () throws(MessageError) in
        reads += 1
        return Self.entry(reads)
      }
      #expect(entry.summary == "entry 1")
    }
    #expect(reads == 1)

    let bad = ClientMessage.ActionInput.path("counter.nope", arguments: [])
    for _ in 0..<2 {
      #expect(throws: MessageError.self) {
        try memo.entry(for: bad) { () throws(MessageError) in
          reads += 1
          throw MessageError(.invalidAction, "no such action")
        }
      }
    }
    #expect(reads == 3)
    #expect(memo.count == 1)
  }

  /// JSON inputs, and paths with long arguments, are read every time and
  /// never kept: they could hold megabytes each.
  @Test func jsonAndLongInputsAreNeverKept() throws {
    var memo = SentActionMemo<AppFeature.Action>()
    var reads = 0
    let inputs: [ClientMessage.ActionInput] = [
      .json(.object(["counter": .string("incrementButtonTapped")])),
      .path(
        "profile.rename", arguments: [String(repeating: "x", count: SentActionMemo<AppFeature.Action>.largestInput)]),
    ]
    for input in inputs + inputs {
      _ = try memo.entry(for: input) { () throws(MessageError) in
        reads += 1
        return Self.entry(reads)
      }
    }
    #expect(reads == 4)
    #expect(memo.count == 0)
  }

  @Test func aFullMemoStartsAfresh() throws {
    var memo = SentActionMemo<AppFeature.Action>()
    for index in 0..<SentActionMemo<AppFeature.Action>.capacity {
      _ = try memo.entry(for: .path("a", arguments: ["\(index)"])) { () throws(MessageError) in Self.entry(index) }
    }
    #expect(memo.count == SentActionMemo<AppFeature.Action>.capacity)
    _ = try memo.entry(for: .path("a", arguments: ["one more"])) { () throws(MessageError) in Self.entry(-1) }
    #expect(memo.count == 1)
  }
}
