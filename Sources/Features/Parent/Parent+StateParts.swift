import ComposableCore

/// The parent's parts (``StateParts``): its counter lists its own, so a
/// change to the count is encoded alone.
extension Parent.State: StateParts {
  public mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("counter", &counter, from: current.counter, visitor)
    try Self.take("preferences", &preferences, from: current.preferences, visitor)
    try Self.take("settings", &settings, from: current.settings, visitor)
  }
}
