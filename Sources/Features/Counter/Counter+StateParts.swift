import ComposableCore

/// The counter's parts (``StateParts``): the daemon compares them one by
/// one, so that an increment encodes and publishes the count alone. They
/// are the stored properties, under the keys `encode(to:)` gives them; the
/// daemon's tests check the document against the full encoding.
extension Counter.State: StateParts {
  public mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("count", &count, from: current.count, visitor)
    try Self.take("isLoading", &isLoading, from: current.isLoading, visitor)
    try Self.take("numberFact", &numberFact, from: current.numberFact, visitor)
    try Self.take("errorMessage", &errorMessage, from: current.errorMessage, visitor)
  }
}
