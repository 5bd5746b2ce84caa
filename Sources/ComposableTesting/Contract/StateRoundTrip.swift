import ComposableCore
import JSON

/// Whether a state survives the daemon's JSON exactly: what the journal,
/// snapshots and clients hold of it must read back as the same state.
///
/// Live, recovered and replayed states are equal only if encoding a state
/// and decoding it gives it back, bit for bit (docs/PROTOCOL.md, "State as
/// JSON"): a value the encoding cannot hold (a date finer than a
/// millisecond, a custom `encode(to:)` that leaves something out) would make
/// a restarted daemon's state differ from the one its clients saw.
enum StateRoundTrip {
  /// What goes wrong when `state` is written and read back, or `nil` when
  /// it reads back equal and writes the same JSON again.
  static func problem<State: Codable & Equatable>(with state: State) -> String? {
    let json: JSONValue
    do {
      json = try CanonicalJSON.value(of: state)
    } catch {
      return "\(State.self) does not encode: \(error)"
    }
    let read: State
    do {
      read = try CanonicalJSON.decode(State.self, from: json)
    } catch {
      return "\(State.self) does not decode from its own JSON: \(error)\n  \(CanonicalJSON.text(json))"
    }
    // A filled @Shared is left out of the JSON (its value lives in the
    // parent's state), so a feature's state that holds one reads back
    // without it: only its JSON can be compared.
    guard read == state || holdsFilledShared(state) else {
      return "\(State.self) reads back from its JSON as a different state:\n"
        + LineDiff.render(expected: ValueDump.lines(state), actual: ValueDump.lines(read))
    }
    guard (try? CanonicalJSON.value(of: read)) == json else {
      return "\(State.self) read back from its JSON writes different JSON"
    }
    return nil
  }

  /// Whether `value` or anything in it is a filled ``Shared``.
  private static func holdsFilledShared(_ value: Any) -> Bool {
    if let shared = value as? any SharedReference { return shared.isFilled }
    return Mirror(reflecting: value).children.contains { holdsFilledShared($0.value) }
  }
}
