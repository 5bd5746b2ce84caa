import ComposableCore

/// The profile's parts (``StateParts``), each encoded only when it changed.
extension Profile.State: StateParts {
  public mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("status", &status, from: current.status, visitor)
    try Self.take("profile", &profile, from: current.profile, visitor)
    try Self.take("userID", &userID, from: current.userID, visitor)
  }
}
