import ComposableCore

/// The product list's parts (``StateParts``): a row's change is looked
/// for in the rows alone.
extension ProductList.State: StateParts {
  public mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("status", &status, from: current.status, visitor)
    try Self.take("rows", &rows, from: current.rows, visitor)
  }
}
