/// Why a JSON Patch could not be read or applied: which operation (by its
/// index in the patch), and what about it failed.
public struct JSONPatchError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong with the operation.
  public enum Reason: Hashable, Sendable {
    /// `path` or `from` names no value where the operation needs one, or
    /// names an array position that is not a valid index.
    case pointer(JSONPointerError)
    /// A `test` found `actual` at its path instead of `expected`.
    case testFailed(expected: JSONValue, actual: JSONValue)
    /// A `move` whose `from` is a proper prefix of its `path`: a value cannot
    /// be moved into itself.
    case moveIntoDescendant
    /// A `remove` of the whole document (path `""`).
    case removeRoot
    /// The JSON is not an operation (not an object, unknown `op`, a missing
    /// or ill-typed member).
    case malformed(String)
  }

  /// The index of the failing operation in the patch, from 0.
  public let index: Int
  /// The failing operation; `nil` when it could not be read.
  public let operation: PatchOperation?
  /// What went wrong.
  public let reason: Reason

  public init(index: Int, operation: PatchOperation?, reason: Reason) {
    self.index = index
    self.operation = operation
    self.reason = reason
  }

  public var description: String {
    guard let operation else {
      if case .malformed(let message) = reason { return "operation \(index) is malformed: \(message)" }
      return "operation \(index) failed: \(reason)"
    }
    let prefix = "operation \(index) (\(operation.summary)) failed: "
    switch reason {
    case .pointer(let error):
      return prefix + error.description
    case .testFailed(let expected, let actual):
      return prefix
        + "the value at \"\(operation.path)\" is \(Self.excerpt(actual)), expected \(Self.excerpt(expected))"
    case .moveIntoDescendant:
      return prefix + "\"\(operation.from ?? .root)\" cannot be moved into its own descendant \"\(operation.path)\""
    case .removeRoot:
      return prefix + "the whole document cannot be removed; replace it instead"
    case .malformed(let message):
      return prefix + message
    }
  }

  /// A value's canonical JSON, cut to a readable length.
  private static func excerpt(_ value: JSONValue) -> String {
    let text = String(decoding: CanonicalJSON.encode(value), as: UTF8.self)
    return text.count <= 120 ? text : String(text.prefix(117)) + "…"
  }
}
