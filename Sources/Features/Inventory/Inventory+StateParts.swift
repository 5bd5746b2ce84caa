import ComposableCore

/// The inventory's parts (``StateParts``), each encoded only when it
/// changed.
extension Inventory.State: StateParts {
  public mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("items", &items, from: current.items, visitor)
    try Self.take("nextItemID", &nextItemID, from: current.nextItemID, visitor)
    try Self.take("destination", &destination, from: current.destination, visitor)
    try Self.take("path", &path, from: current.path, visitor)
  }
}
