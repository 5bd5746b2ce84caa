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
/// ``takeParts(from:_:)`` must give every member the state's `encode(to:)`
/// writes, under the same key and holding the same value; a state that
/// adopts this should have its document compared with the full encoding in
/// a test, as the daemon's tests do for the app's root state. Each part is
/// one line, with ``take(_:_:from:_:)``.
public protocol StateParts {
  /// Makes each stored part equal to the same part of `current`, and calls
  /// `part` with each in turn: its key in the state's JSON, whether it
  /// differed, and its value (nil for a nil optional, which the daemon's
  /// encoder writes as `null`), asked for only where needed.
  ///
  /// The daemon keeps the last state it encoded and brings it up to date
  /// this way, part by part, instead of copying the whole state after each
  /// action: a copy retains every reference the state holds, however
  /// little changed.
  mutating func takeParts(
    from current: Self, _ part: (_ key: String, _ differed: Bool, _ value: () -> (any Encodable)?) throws -> Void
  ) rethrows
}

extension StateParts {
  /// One part for ``takeParts(from:_:)``: makes `part` equal to `current`
  /// if it differs, and hands it to `visit` under `key`.
  @inlinable
  public static func take<Part: Equatable & Encodable>(
    _ key: String, _ part: inout Part, from current: Part,
    _ visit: (_ key: String, _ differed: Bool, _ value: () -> (any Encodable)?) throws -> Void
  ) rethrows {
    let differed = part != current
    if differed { part = current }
    try visit(key, differed) { part }
  }

  /// An optional part for ``takeParts(from:_:)``, whose value is nil when
  /// it holds none.
  @inlinable
  public static func take<Part: Equatable & Encodable>(
    _ key: String, _ part: inout Part?, from current: Part?,
    _ visit: (_ key: String, _ differed: Bool, _ value: () -> (any Encodable)?) throws -> Void
  ) rethrows {
    let differed = part != current
    if differed { part = current }
    try visit(key, differed) { part.map { $0 } }
  }
}
