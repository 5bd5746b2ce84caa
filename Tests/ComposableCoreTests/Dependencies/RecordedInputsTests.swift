import ComposableCore
import FoundationEssentials
import JSON
import Testing

/// What a reducer draws is recorded with its action, and a replay gives it
/// back in order (docs/DURABILITY.md, "Record").
@Suite struct RecordedInputsTests {
  @Test func theDrawsOfAReductionAreRecordedInOrder() {
    let recorder = InputRecorder()
    var live = DependencyValues()
    live.date = .constant(Date(timeIntervalSince1970: 1_700_000_000.123_456))
    live.uuid = .incrementing()
    live.randomNumbers = .sequence([4, 2])
    let values = live.recordingInputs(into: recorder)
    #expect(recorder.take() == nil, "nothing drawn yet")

    let drawn = DependencyValues.$current.withValue(values) {
      @Dependency(\.date) var date
      @Dependency(\.uuid) var uuid
      @Dependency(\.randomNumbers) var random
      return (date.now, uuid(), random.int(in: 1...6), uuid(), random.int(in: 1...6))
    }
    // The date is at the nearest millisecond, and the reducer sees that
    // date: the one its JSON and a replay give.
    #expect(drawn.0 == JSONDate.date(milliseconds: 1_700_000_000_123))
    let inputs = recorder.take()
    #expect(
      inputs
        == RecordedInputs(
          dates: [1_700_000_000_123], uuids: [UUID(counting: 0), UUID(counting: 1)], randomNumbers: [4, 2]))
    #expect(recorder.take() == nil, "taken once")
    #expect(
      inputs?.json
        == .object([
          "date": .array([.int(1_700_000_000_123)]), "random": .array([.int(4), .int(2)]),
          "uuid": .array([.string(UUID(counting: 0).uuidString), .string(UUID(counting: 1).uuidString)]),
        ]))

    DependencyValues.$current.withValue(values) {
      @Dependency(\.uuid) var uuid
      _ = uuid()
    }
    recorder.discard()
    #expect(recorder.take() == nil, "an undone reduction's draws are forgotten")
  }

  /// The live clock gives whole milliseconds: the date a reducer keeps in
  /// its state is the one its JSON, the journal's record and a replay give
  /// (``JSONDate``), bit for bit.
  @Test func theLiveClockGivesWholeMilliseconds() throws {
    let recorder = InputRecorder()
    let values = DependencyValues().recordingInputs(into: recorder)
    for _ in 0..<1_000 {
      let live = DateGenerator.live.now
      let milliseconds = try #require(JSONDate.milliseconds(of: live))
      #expect(
        JSONDate.date(milliseconds: milliseconds).timeIntervalSinceReferenceDate.bitPattern
          == live.timeIntervalSinceReferenceDate.bitPattern)
      #expect(try JSONValueDecoder.decode(Date.self, from: JSONValueEncoder.encode(live)) == live)
      let recorded = DependencyValues.$current.withValue(values) {
        @Dependency(\.date) var date
        return date.now
      }
      let inputs = try #require(recorder.take())
      #expect(inputs.dates.map(JSONDate.date(milliseconds:)) == [recorded])
      #expect(try JSONValueDecoder.decode(Date.self, from: JSONValueEncoder.encode(recorded)) == recorded)
    }
  }

  @Test func recordedInputsReadBackAndBadOnesSayWhatWasExpected() throws {
    let inputs = RecordedInputs(dates: [5], uuids: [UUID(counting: 9)], randomNumbers: [3])
    #expect(try RecordedInputs(json: inputs.json) == inputs)
    #expect(RecordedInputs().json == .object([:]))
    let cases: [(JSONValue, String)] = [
      (.array([]), #"the recorded inputs: expected an object of "date", "random" and "uuid" arrays, got an array"#),
      (.object(["date": .int(1)]), #"the recorded inputs: expected "date" to be an array, got a number"#),
      (
        .object(["date": .array([.string("now")])]),
        #"the recorded inputs: expected "date" to hold milliseconds since 1970, got a string"#
      ),
      (
        .object(["uuid": .array([.string("x")])]),
        #"the recorded inputs: expected "uuid" to hold UUID strings, got "x""#
      ),
      (
        .object(["weather": .array([])]),
        #"the recorded inputs: unknown input "weather": expected "date", "random" or "uuid""#
      ),
    ]
    for (json, message) in cases {
      #expect(throws: Error.self) { try RecordedInputs(json: json) }
      do {
        _ = try RecordedInputs(json: json)
      } catch {
        #expect(error.description == message)
      }
    }
  }

  @Test func aPlaybackGivesWhatWasRecordedThenFixedValues() {
    let playback = InputPlayback()
    playback.load(RecordedInputs(dates: [1000], uuids: [UUID(counting: 7)], randomNumbers: [9]), time: 2000)
    let values = DependencyValues().replaying(playback)
    let drawn = DependencyValues.$current.withValue(values) {
      @Dependency(\.date) var date
      @Dependency(\.uuid) var uuid
      @Dependency(\.randomNumbers) var random
      // The recorded 9 is given as recorded, whatever the range.
      return (date.now, date.now, uuid(), random.int(in: 1...6), random.int(in: 2...6))
    }
    #expect(drawn.0 == Date(timeIntervalSince1970: 1))
    #expect(drawn.1 == Date(timeIntervalSince1970: 2), "beyond the recorded dates: the record's time")
    #expect(drawn.2 == UUID(counting: 7) && drawn.3 == 9 && drawn.4 == 2)
    #expect(playback.mismatch.extra == ["date", "random"] && playback.mismatch.unused.isEmpty)

    playback.load(RecordedInputs(uuids: [UUID(counting: 1)]), time: 0)
    #expect(playback.mismatch.extra.isEmpty && playback.mismatch.unused == ["uuid"])
  }
}
