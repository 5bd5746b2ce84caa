import JSON

/// Rebuilding a state from a base and records' patches.
///
/// `JSONPatch.apply` copies the containers along each operation's path once
/// per call (its argument is a shared value), so applying record by record
/// would copy a 100,000-element array once per record that touches it. The
/// operations of many records are therefore applied in one call, which
/// copies once per chunk; an error is still traced to its record.
enum Replay {
  /// Records per `JSONPatch.apply` call.
  static let chunkSize = 4096

  /// `state` with the patches of `entries`, in order, applied.
  static func apply(_ entries: some Sequence<JournalEntry>, to state: JSONValue) throws(JournalError) -> JSONValue {
    var state = state
    var operations: [PatchOperation] = []
    /// For each record in the chunk: its entry and the index of its first operation.
    var starts: [(entry: JournalEntry, firstOperation: Int)] = []
    starts.reserveCapacity(chunkSize)

    func flush() throws(JournalError) {
      guard !operations.isEmpty else {
        starts.removeAll(keepingCapacity: true)
        return
      }
      do {
        state = try JSONPatch.apply(operations, to: state)
      } catch {
        let owner = starts.last { $0.firstOperation <= error.index } ?? starts[0]
        let local = JSONPatchError(
          index: error.index - owner.firstOperation, operation: error.operation, reason: error.reason)
        throw .patchDoesNotApply(
          version: owner.entry.version, path: owner.entry.path, offset: owner.entry.offset, reason: local.description)
      }
      operations.removeAll(keepingCapacity: true)
      starts.removeAll(keepingCapacity: true)
    }

    var decoder = PatchDecoder()
    for entry in entries {
      starts.append((entry, operations.count))
      operations += try entry.patchOperations(decoder: &decoder)
      if starts.count == chunkSize { try flush() }
    }
    try flush()
    return state
  }
}
