import ComposableCore

/// The BMI calculator's parts (``StateParts``), each encoded only when it
/// changed.
extension BMI.State: StateParts {
  public mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("input", &input, from: current.input, visitor)
    try Self.take("history", &history, from: current.history, visitor)
    try Self.take("selectedTab", &selectedTab, from: current.selectedTab, visitor)
  }
}
