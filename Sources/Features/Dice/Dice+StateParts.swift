import ComposableCore

/// The dice's parts (``StateParts``): a roll encodes what it changed, and
/// the view derived from them, alone.
extension Dice.State: StateParts {
  public mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("currentRoll", &currentRoll, from: current.currentRoll, visitor)
    try Self.take("isRolling", &isRolling, from: current.isRolling, visitor)
    try Self.take("rollHistory", &rollHistory, from: current.rollHistory, visitor)
    try Self.take("rollAnimationAngle", &rollAnimationAngle, from: current.rollAnimationAngle, visitor)
    try Self.take("destination", &destination, from: current.destination, visitor)
    try Self.take("errorMessage", &errorMessage, from: current.errorMessage, visitor)
  }
}
