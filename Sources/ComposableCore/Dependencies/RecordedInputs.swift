import FoundationEssentials
import JSON
import Synchronization

/// What a reducer drew from the world while reducing one action: the
/// dates, UUIDs and random numbers the `date`, `uuid` and `randomNumbers`
/// dependencies gave it, in the order it asked.
///
/// The daemon journals them with the action (docs/DURABILITY.md, "Record"),
/// so that replaying the journal — `verify`, the journal as a regression
/// test, `tcactl what-if` — gives the reducer the same values and reproduces
/// the same state. Everything else a reducer reads is its state, its action
/// and settings, which are the same on replay; an app's own dependency that
/// draws from the world is not recorded, and its replay diverges.
///
/// As JSON, only what was drawn: `{"date":[<ms since 1970>],"random":[4],
/// "uuid":["…"]}`. A recorded date has millisecond precision, and the live
/// dependency gives the reducer exactly the date it records, which is also
/// the date its JSON in the state decodes to (``JSONDate``).
public struct RecordedInputs: Sendable, Hashable {
  /// Each date drawn, in milliseconds since 1970.
  public var dates: [Int64] = []
  public var uuids: [UUID] = []
  public var randomNumbers: [Int] = []

  public init(dates: [Int64] = [], uuids: [UUID] = [], randomNumbers: [Int] = []) {
    self.dates = dates
    self.uuids = uuids
    self.randomNumbers = randomNumbers
  }

  /// Whether nothing was drawn.
  public var isEmpty: Bool { dates.isEmpty && uuids.isEmpty && randomNumbers.isEmpty }

  /// The JSON the journal keeps: a member per kind drawn.
  public var json: JSONValue {
    var object = JSONObject()
    if !dates.isEmpty { object["date"] = .array(JSONArray(dates.map { .int(Int($0)) })) }
    if !randomNumbers.isEmpty { object["random"] = .array(JSONArray(randomNumbers.map { .int($0) })) }
    if !uuids.isEmpty { object["uuid"] = .array(JSONArray(uuids.map { .string($0.uuidString) })) }
    return .object(object)
  }

  /// Reads what ``json`` wrote.
  ///
  /// - Throws: ``RecordedInputsError`` saying what was expected.
  public init(json: JSONValue) throws(RecordedInputsError) {
    guard case .object(let object) = json else {
      throw RecordedInputsError(
        "expected an object of \"date\", \"random\" and \"uuid\" arrays, got \(json.kindDescription)")
    }
    for (key, value) in object {
      guard case .array(let values) = value else {
        throw RecordedInputsError("expected \"\(key)\" to be an array, got \(value.kindDescription)")
      }
      switch key {
      case "date":
        dates = try values.map { (value: JSONValue) throws(RecordedInputsError) -> Int64 in
          guard case .int(let milliseconds) = value else {
            throw RecordedInputsError("expected \"date\" to hold milliseconds since 1970, got \(value.kindDescription)")
          }
          return Int64(milliseconds)
        }
      case "random":
        randomNumbers = try values.map { (value: JSONValue) throws(RecordedInputsError) -> Int in
          guard case .int(let number) = value else {
            throw RecordedInputsError("expected \"random\" to hold integers, got \(value.kindDescription)")
          }
          return number
        }
      case "uuid":
        uuids = try values.map { (value: JSONValue) throws(RecordedInputsError) -> UUID in
          guard case .string(let text) = value, let uuid = UUID(uuidString: text) else {
            throw RecordedInputsError("expected \"uuid\" to hold UUID strings, got \(CanonicalJSON.text(value))")
          }
          return uuid
        }
      default:
        throw RecordedInputsError("unknown input \"\(key)\": expected \"date\", \"random\" or \"uuid\"")
      }
    }
  }

  /// The date of `milliseconds` since 1970, as the live dependency, replay
  /// and a date's JSON give it (``JSONDate/date(milliseconds:)``).
  static func date(milliseconds: Int64) -> Date {
    JSONDate.date(milliseconds: milliseconds)
  }
}

/// Recorded inputs that are not what ``RecordedInputs/init(json:)`` reads.
public struct RecordedInputsError: Error, Sendable, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = "the recorded inputs: \(description)" }
}

/// Gathers what the `date`, `uuid` and `randomNumbers` dependencies give
/// while an action is reduced (``DependencyValues/recordingInputs(into:)``);
/// the daemon takes them after each action, for its journal record.
public final class InputRecorder: Sendable {
  private let drawn = Mutex(RecordedInputs())
  /// Whether anything was drawn since the last take: most actions draw
  /// nothing, and then taking costs one load.
  private let hasDrawn = Atomic<Bool>(false)

  public init() {}

  /// What was drawn since the last call (or ``discard()``), or `nil` if nothing.
  public func take() -> RecordedInputs? {
    guard hasDrawn.load(ordering: .acquiring) else { return nil }
    hasDrawn.store(false, ordering: .releasing)
    return drawn.withLock { inputs in
      defer { inputs = RecordedInputs() }
      return inputs
    }
  }

  /// Forgets what was drawn: for an action whose reduction was undone.
  public func discard() {
    _ = take()
  }

  fileprivate func note(_ update: (inout RecordedInputs) -> Void) {
    drawn.withLock { update(&$0) }
    hasDrawn.store(true, ordering: .releasing)
  }
}

/// Replays recorded inputs: each dependency gives the recorded values in
/// order; one asked for more than were recorded gives a fixed value (the
/// record's time, the zero UUID, the range's lower bound) and counts the
/// extra draw, so that a replay stays deterministic and can say why it
/// diverged. One playback serves a whole replay: ``load(_:time:)`` gives it
/// the next action's inputs.
public final class InputPlayback: Sendable {
  private struct Position {
    var inputs = RecordedInputs()
    /// What a date drawn beyond the recorded ones is: the record's time.
    var time: Int64 = 0
    var date = 0
    var uuid = 0
    var random = 0
    var extraDraws: [String] = []
  }

  private let position = Mutex(Position())

  public init() {}

  /// Starts giving `inputs`, recorded with an action reduced at `time`
  /// (milliseconds since 1970).
  public func load(_ inputs: RecordedInputs, time: Int64) {
    position.withLock { $0 = Position(inputs: inputs, time: time) }
  }

  /// The draws the reducer made beyond what was recorded (`"date"`,
  /// `"uuid"`, `"random"`), in order, and the kinds it drew fewer of than
  /// were recorded; both empty when it drew exactly what was recorded.
  public var mismatch: (extra: [String], unused: [String]) {
    position.withLock { position in
      var unused: [String] = []
      if position.date < position.inputs.dates.count { unused.append("date") }
      if position.uuid < position.inputs.uuids.count { unused.append("uuid") }
      if position.random < position.inputs.randomNumbers.count { unused.append("random") }
      return (position.extraDraws, unused)
    }
  }

  fileprivate func date() -> Date {
    position.withLock { position in
      defer { position.date += 1 }
      guard position.date < position.inputs.dates.count else {
        position.extraDraws.append("date")
        return RecordedInputs.date(milliseconds: position.time)
      }
      return RecordedInputs.date(milliseconds: position.inputs.dates[position.date])
    }
  }

  fileprivate func uuid() -> UUID {
    position.withLock { position in
      defer { position.uuid += 1 }
      guard position.uuid < position.inputs.uuids.count else {
        position.extraDraws.append("uuid")
        return UUID(counting: 0)
      }
      return position.inputs.uuids[position.uuid]
    }
  }

  fileprivate func random(in range: ClosedRange<Int>) -> Int {
    position.withLock { position in
      defer { position.random += 1 }
      guard position.random < position.inputs.randomNumbers.count else {
        position.extraDraws.append("random")
        return range.lowerBound
      }
      return position.inputs.randomNumbers[position.random]
    }
  }
}

extension DependencyValues {
  /// These dependencies, with `date`, `uuid` and `randomNumbers` noting in
  /// `recorder` each value they give. The date is the underlying one at the
  /// nearest millisecond, as it is recorded and as its JSON keeps it
  /// (``JSONDate``): the live clock gives whole milliseconds already, and a
  /// test's constant with a finer fraction is rounded the same way.
  public func recordingInputs(into recorder: InputRecorder) -> DependencyValues {
    var values = self
    let (date, uuid, random) = (self.date, self.uuid, self.randomNumbers)
    values.date = DateGenerator {
      let milliseconds = JSONDate.nearestMilliseconds(to: date.now)
      recorder.note { $0.dates.append(milliseconds) }
      return RecordedInputs.date(milliseconds: milliseconds)
    }
    values.uuid = UUIDGenerator {
      let value = uuid()
      recorder.note { $0.uuids.append(value) }
      return value
    }
    values.randomNumbers = RandomNumbers { range in
      let value = random.int(in: range)
      recorder.note { $0.randomNumbers.append(value) }
      return value
    }
    return values
  }

  /// These dependencies, with `date`, `uuid` and `randomNumbers` giving
  /// what `playback` recorded.
  public func replaying(_ playback: InputPlayback) -> DependencyValues {
    var values = self
    values.date = DateGenerator { playback.date() }
    values.uuid = UUIDGenerator { playback.uuid() }
    values.randomNumbers = RandomNumbers { playback.random(in: $0) }
    return values
  }
}
