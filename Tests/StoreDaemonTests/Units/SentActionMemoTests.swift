import ComposableCore
import Features
import JSON
import Testing
import Wire

@testable import StoreDaemon

@Suite struct SentActionMemoTests {
  typealias Memo = SentActionMemo<AppFeature.Action>

  /// What a read gives the `count`th time it is called.
  static func read(_ count: Int, into reading: inout ActionReading) -> AppFeature.Action {
    reading = ActionReading(json: .int(count), canonical: Array("\(count)".utf8), summary: "entry \(count)")
    return .counter(.incrementButtonTapped)
  }

  @Test func aRepeatedInputIsReadOnceAndAFailureIsNeverKept() throws {
    let memo = Memo()
    var reads = 0
    let input = ClientMessage.ActionInput.path("counter.incrementButtonTapped", arguments: [])
    for _ in 0..<3 {
      var reading = ActionReading.unread
      let action = try memo.action(for: input, reading: &reading) { (reading) throws(MessageError) in
        reads += 1
        return Self.read(reads, into: &reading)
      }
      #expect(action == .counter(.incrementButtonTapped))
      #expect(reading.summary == "entry 1")
      #expect(reading.json == .int(1))
    }
    #expect(reads == 1)

    let bad = ClientMessage.ActionInput.path("counter.nope", arguments: [])
    for _ in 0..<2 {
      var reading = ActionReading.unread
      #expect(throws: MessageError.self) {
        try memo.action(for: bad, reading: &reading) { (_) throws(MessageError) in
          reads += 1
          throw MessageError(.invalidAction, "no such action")
        }
      }
    }
    #expect(reads == 3)
    #expect(memo.count == 1)
  }

  /// The input sent last is found by its path and every argument: one that
  /// differs from it in any of them (an argument split in two, a different
  /// count, a different path) is another action, read or found as itself.
  @Test func theLastInputMatchesOnlyByPathAndEveryArgument() throws {
    let memo = Memo()
    var reads: [String] = []
    let inputs: [ClientMessage.ActionInput] = [
      .path("cart.addItem", arguments: ["ab"]),
      .path("cart.addItem", arguments: ["a", "b"]),
      .path("cart.addItem", arguments: ["a"]),
      .path("cart.addItem", arguments: []),
      .path("cart.removeItem", arguments: ["ab"]),
      .path("cart.addItem", arguments: ["ab"]),
    ]
    for (index, input) in inputs.enumerated() {
      var reading = ActionReading.unread
      _ = try memo.action(for: input, reading: &reading) { (reading) throws(MessageError) in
        reads.append("\(input)")
        return Self.read(index, into: &reading)
      }
      // The last input is found again, not read: the summary of its first read.
      #expect(reading.summary == "entry \(index == 5 ? 0 : index)")
    }
    #expect(reads.count == 5)
    #expect(memo.count == 5)
  }

  /// JSON inputs, and paths with long arguments, are read every time and
  /// never kept: they could hold megabytes each.
  @Test func jsonAndLongInputsAreNeverKept() throws {
    let memo = Memo()
    var reads = 0
    let inputs: [ClientMessage.ActionInput] = [
      .json(.object(["counter": .string("incrementButtonTapped")])),
      .path("profile.rename", arguments: [String(repeating: "x", count: Memo.largestInput)]),
    ]
    for input in inputs + inputs {
      var reading = ActionReading.unread
      _ = try memo.action(for: input, reading: &reading) { (reading) throws(MessageError) in
        reads += 1
        return Self.read(reads, into: &reading)
      }
      #expect(reading.summary == "entry \(reads)")
    }
    #expect(reads == 4)
    #expect(memo.count == 0)
  }

  /// A full memo starts afresh, and what it keeps after that is read right.
  @Test func aFullMemoStartsAfresh() throws {
    let memo = Memo()
    var reading = ActionReading.unread
    for index in 0..<Memo.capacity {
      _ = try memo.action(for: .path("a", arguments: ["\(index)"]), reading: &reading) {
        (reading) throws(MessageError) in Self.read(index, into: &reading)
      }
    }
    #expect(memo.count == Memo.capacity)
    _ = try memo.action(for: .path("a", arguments: ["one more"]), reading: &reading) {
      (reading) throws(MessageError) in Self.read(-1, into: &reading)
    }
    #expect(memo.count == 1)
    _ = try memo.action(for: .path("a", arguments: ["one more"]), reading: &reading) {
      (_) throws(MessageError) in
      Issue.record("read again")
      return .counter(.incrementButtonTapped)
    }
    #expect(reading.summary == "entry -1")
  }
}
