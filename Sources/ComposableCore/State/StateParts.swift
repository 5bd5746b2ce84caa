/// A state whose JSON is an object with one member per stored part, and
/// which says which parts differ from another state's, so that the daemon
/// encodes only those.
///
/// The daemon publishes the whole state as a JSON document after every
/// action. Without this it runs the state's `encode(to:)` each time and
/// compares each part on its way through the `Encoder` with what it was last
/// time, paying the encoder's bookkeeping for every part, changed or not,
/// although an action changes one or two of them. With it, an unchanged part
/// costs one `==`, and a changed part is encoded alone.
///
/// A part may itself list its parts: the daemon then goes down into it, and
/// an action that changes one field of a child feature's state encodes that
/// field alone, and publishes it as one patch operation, however much else
/// the child holds. The root state and the child states the app changes
/// most often gain the most from it.
///
/// ``takeParts(from:_:)`` must give every member the state's `encode(to:)`
/// writes, under the same key and holding the same value: the contract test
/// (`assertContract(of:states:)`) checks the keys for each state it is
/// given. Each part is one line, with ``take(_:_:from:_:)``:
///
/// ```swift
/// extension Counter.State: StateParts {
///   public mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
///     try Self.take("count", &count, from: current.count, visitor)
///     try Self.take("numberFact", &numberFact, from: current.numberFact, visitor)
///   }
/// }
/// ```
public protocol StateParts {
  /// Makes each stored part equal to the same part of `current`, and hands
  /// each to `visitor` in turn (only those that differed, to a visitor that
  /// does not ask for the others: ``StatePartsVisitor/visitsUnchanged``): a
  /// part that lists parts of its own to
  /// ``StatePartsVisitor/visitParts(_:_:from:differed:)``, any other to
  /// ``StatePartsVisitor/visit(_:_:differed:)``, or
  /// ``StatePartsVisitor/visitNil(_:differed:)`` when it is a nil optional.
  ///
  /// The daemon keeps the last state it encoded and brings it up to date
  /// this way, part by part, instead of copying the whole state after each
  /// action: a copy retains every reference the state holds, however
  /// little changed.
  ///
  /// The visitor is an existential rather than a generic parameter, so
  /// that each ``take(_:_:from:_:)`` is specialized for its part's type
  /// where the state lists it.
  mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws
}

/// What ``StateParts/takeParts(from:_:)`` hands each part to: the daemon's
/// document encoder, or a test listing the parts. A class, so that a state
/// hands it on to its parts as one reference.
public protocol StatePartsVisitor: AnyObject {
  /// Whether the parts that did not differ are handed over too: a list of
  /// the parts wants them all, the daemon's encoder only those that
  /// changed, and is then spared a call for each of the others. True
  /// unless the visitor says otherwise.
  var visitsUnchanged: Bool { get }

  /// A part under `key`, and whether it differed from the state it was
  /// brought up to.
  func visit<Part: Equatable & Encodable>(_ key: String, _ part: Part, differed: Bool) throws

  /// An optional part under `key` that holds nil (which the daemon's
  /// encoder writes as `null`), and whether it differed.
  func visitNil(_ key: String, differed: Bool) throws

  /// A part under `key` that lists parts of its own, and whether it
  /// differs from `current`: the visitor brings it up to `current` with
  /// its ``StateParts/takeParts(from:_:)``, which hands its parts to the
  /// visitor in turn (the daemon's encoder only when it differs).
  func visitParts<Part: StateParts & Equatable & Encodable>(
    _ key: String, _ part: inout Part, from current: Part, differed: Bool
  ) throws
}

extension StatePartsVisitor {
  public var visitsUnchanged: Bool { true }
}

extension StateParts {
  /// One part for ``takeParts(from:_:)``: makes `part` equal to `current`
  /// if it differs, and hands it to `visitor` under `key`.
  @inlinable
  public static func take<Part: Equatable & Encodable>(
    _ key: String, _ part: inout Part, from current: Part, _ visitor: any StatePartsVisitor
  ) throws {
    let differed = !isUnchanged(&part, current)
    guard differed || visitor.visitsUnchanged else { return }
    if differed { part = current }
    try visitor.visit(key, part, differed: differed)
  }

  /// An optional part for ``takeParts(from:_:)``, whose value is nil when
  /// it holds none.
  @inlinable
  public static func take<Part: Equatable & Encodable>(
    _ key: String, _ part: inout Part?, from current: Part?, _ visitor: any StatePartsVisitor
  ) throws {
    let differed = !isUnchanged(&part, current)
    guard differed || visitor.visitsUnchanged else { return }
    if differed { part = current }
    if let part {
      try visitor.visit(key, part, differed: differed)
    } else {
      try visitor.visitNil(key, differed: differed)
    }
  }

  /// A part that lists parts of its own, for ``takeParts(from:_:)``: the
  /// visitor goes down into it.
  @inlinable
  public static func take<Part: StateParts & Equatable & Encodable>(
    _ key: String, _ part: inout Part, from current: Part, _ visitor: any StatePartsVisitor
  ) throws {
    let differed = !isUnchanged(&part, current)
    guard differed || visitor.visitsUnchanged else { return }
    try visitor.visitParts(key, &part, from: current, differed: differed)
  }

  /// Whether `part` equals `current`. A part the last action left alone
  /// is the very value the daemon's last state was given, the same bytes
  /// and the same references, so its bytes are compared first: that costs
  /// a few loads where `==` would walk the whole part. Bytes that differ
  /// (another value, or only padding) leave it to `==`. A part whose bytes
  /// are the same encodes the same, even where `==` would say otherwise
  /// (a `Double.nan`), which is what the daemon asks.
  @inlinable
  public static func isUnchanged<Part: Equatable>(_ part: inout Part, _ current: Part) -> Bool {
    let sameBytes = withUnsafeBytes(of: &part) { mine in
      withUnsafeBytes(of: current) { theirs in StatePartsBytes.equal(mine, theirs) }
    }
    return sameBytes || part == current
  }
}

/// The byte comparison of ``StateParts/isUnchanged(_:_:)``.
@usableFromInline
enum StatePartsBytes {
  /// Whether `left` and `right`, of one type's size, hold the same bytes.
  @inlinable
  static func equal(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
    guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
    let count = left.count
    var offset = 0
    while offset + 8 <= count {
      guard
        leftBase.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          == rightBase.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      else { return false }
      offset += 8
    }
    while offset < count {
      guard
        leftBase.load(fromByteOffset: offset, as: UInt8.self) == rightBase.load(fromByteOffset: offset, as: UInt8.self)
      else { return false }
      offset += 1
    }
    return true
  }
}
