import JSON
import Wire

/// One operation of a patch together with what its path held just before
/// it: what a change line needs to show `old → new` exactly.
struct Change {
  /// What the operation's path (for a move, its `from`) held before it.
  enum Before: Equatable {
    /// Nothing, or nothing that matters (an `add`).
    case absent
    /// This value.
    case value(JSONValue)
    /// Not known: the document the patch applies to is not held
    /// (``TrackedState/document`` is `nil`).
    case unknown
  }

  let operation: PatchOperation
  let before: Before
}

/// A copy of a JSON document — the state, or the part a subscription
/// watches — kept current by applying each patch in order, so that every
/// change can be shown with the value it replaced.
///
/// The document is `nil` when it is not known (a resumed `watch` whose start
/// the journal no longer holds, a `log` whose records are not contiguous);
/// changes then say `?` for what they replaced, and nothing is guessed.
struct TrackedState {
  var document: JSONValue?

  init(_ document: JSONValue?) {
    self.document = document
  }

  /// Applies `patch`, one operation at a time so that each sees the document
  /// the previous ones left; returns each operation with what it replaced.
  ///
  /// - Throws: ``JSONPatchError`` when an operation does not apply to the
  ///   document held: the daemon's patches and its state disagree (the
  ///   document is then forgotten).
  mutating func apply(_ patch: [PatchOperation]) throws(JSONPatchError) -> [Change] {
    var changes: [Change] = []
    changes.reserveCapacity(patch.count)
    for operation in patch {
      guard let current = document else {
        changes.append(Change(operation: operation, before: Self.isAddition(operation) ? .absent : .unknown))
        continue
      }
      let location = operation.from ?? operation.path
      let before: Change.Before =
        Self.isAddition(operation) ? .absent : location.value(in: current).map { .value($0) } ?? .absent
      changes.append(Change(operation: operation, before: before))
      do {
        document = try JSONPatch.apply([operation], to: current)
      } catch {
        document = nil
        throw error
      }
    }
    return changes
  }

  /// Whether `operation` adds without replacing anything worth showing.
  private static func isAddition(_ operation: PatchOperation) -> Bool {
    switch operation {
    case .add, .copy, .test: true
    case .remove, .replace, .move: false
    }
  }
}
