/// The message for a recovered state the current code cannot decode: the
/// app's `State` changed shape since the snapshot (or the journal) was
/// written.
///
/// The daemon decodes ``Snapshot/state`` (or the state replayed from the
/// journal) into its `State` type; when that throws a `DecodingError`, it
/// wraps it here and refuses to start with ``description``, which names the
/// file, the field (as a path such as `cart.items[3].price`) and what to do.
/// The file must be left untouched: it holds acknowledged state that another
/// build of storedaemon can still read.
public struct StateDecodingFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file the state came from.
  public let path: String
  /// The version of the state.
  public let version: UInt64
  /// The field that failed, from the root: `cart.items[3].price`, or `(root)`.
  public let field: String
  /// What the decoder expected and found there.
  public let detail: String

  /// Describes `error`, thrown while decoding the state at `version` read
  /// from `path`.
  public init(_ error: DecodingError, path: String, version: UInt64) {
    self.path = path
    self.version = version
    switch error {
    case .typeMismatch(let type, let context):
      field = Self.field(context.codingPath)
      detail = "expected a value of type \(type): \(context.debugDescription)"
    case .valueNotFound(let type, let context):
      field = Self.field(context.codingPath)
      detail = "expected a value of type \(type), found none (null or missing): \(context.debugDescription)"
    case .keyNotFound(let key, let context):
      field = Self.field(context.codingPath + [key])
      detail = "the member \"\(key.stringValue)\" is missing; the current code requires it"
    case .dataCorrupted(let context):
      field = Self.field(context.codingPath)
      detail = context.debugDescription
    @unknown default:
      field = "(unknown)"
      detail = String(describing: error)
    }
  }

  public var description: String {
    "the state in \(path) (version \(version)) does not decode at \(field): \(detail). "
      + "The state's shape changed since this file was written. The file is left untouched: restore a "
      + "build of the daemon that matches it, or move the journal directory aside to start from an empty state."
  }

  /// A coding path as `a.b[3].c`; `(root)` for the empty path.
  static func field(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        if !text.isEmpty { text += "." }
        text += key.stringValue
      }
    }
    return text.isEmpty ? "(root)" : text
  }
}
