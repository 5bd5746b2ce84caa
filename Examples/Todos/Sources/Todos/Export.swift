import ActionLanguage
import ComposableCore

/// The app's own effect kind: writing the list to a file, carried out by the
/// `todos-export` worker (Examples/Todos/Workers), a Python program that
/// speaks the worker protocol.
public enum Export {
  /// The kind the Todos daemon declares and the worker serves.
  public static let kind: WorkerKind = "export"
  /// The file the list is written to, in the worker's directory
  /// (`STATE_DIR/workers/export`).
  public static let fileName = "todos.md"

  /// What the worker is asked: the rows in list order, and the file.
  struct Request: Encodable, Sendable {
    struct Row: Encodable, Sendable {
      let title: String
      let isComplete: Bool
    }
    let file: String
    let todos: [Row]
  }

  /// Where an export stands.
  public enum Status: Equatable, Sendable, Codable {
    case idle
    /// The worker is writing the file.
    case exporting
    /// The file was written.
    case exported(Receipt)
    /// The export failed; the message says why.
    case failed(String)
  }

  /// What the worker wrote.
  public struct Receipt: Equatable, Sendable, Codable {
    /// The file's path.
    public var path: String
    /// How many rows it holds.
    public var count: Int
    /// Its size.
    public var bytes: Int

    public init(path: String, count: Int, bytes: Int) {
      self.path = path
      self.count = count
      self.bytes = bytes
    }
  }
}

extension InternalSender {
  /// The app's own `export` worker (``Export``).
  public static let exportWorker = InternalSender("the export worker")
}
