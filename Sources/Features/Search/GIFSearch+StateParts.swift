import ComposableCore

/// The search's parts (``StateParts``): a keystroke encodes the text alone,
/// and the view derived from the parts.
extension GIFSearch.State: StateParts {
  public mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("text", &text, from: current.text, visitor)
    try Self.take("query", &query, from: current.query, visitor)
    try Self.take("results", &results, from: current.results, visitor)
    try Self.take("isLoading", &isLoading, from: current.isLoading, visitor)
    try Self.take("errorMessage", &errorMessage, from: current.errorMessage, visitor)
  }
}
