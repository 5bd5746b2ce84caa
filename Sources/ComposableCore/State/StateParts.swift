/// A state whose JSON is an object with one member per stored part, and
/// which says which parts differ from another state's, so that the daemon
/// encodes only those.
///
/// The daemon publishes the whole state as a JSON document after every
/// action. Without this it runs the state's `encode(to:)` each time and
/// compares each part on its way through the `Encoder` with what it was last
/// time, paying the encoder's bookkeeping for every part, changed or not,
/// although an action changes one or two of them. With it, an unchanged part
/// costs one `==`.
///
/// ``forEachPart(since:_:)`` must give every member the state's
/// `encode(to:)` writes, under the same key and holding the same value; a
/// state that adopts this should have its document compared with the full
/// encoding in a test, as the daemon's tests do for the app's root state.
public protocol StateParts {
  /// Calls `part` with each stored part in turn: its key in the state's
  /// JSON, whether it differs from the same part of `previous`, and its
  /// value (nil for a nil optional, which the daemon's encoder writes as
  /// `null`), asked for only where needed.
  func forEachPart(
    since previous: Self, _ part: (_ key: String, _ differs: Bool, _ value: () -> (any Encodable)?) throws -> Void
  ) rethrows
}
