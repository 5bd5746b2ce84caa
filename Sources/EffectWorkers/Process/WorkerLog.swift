import ComposableCore

/// The worker's log: one line per call on standard error, prefixed
/// `effectworker[<kind>]:` so the daemon's log tells its workers apart.
struct WorkerLog: Sendable {
  let kind: WorkerKind

  /// Writes one line; newlines inside `message` are shown as `\n` so a line is
  /// always one record.
  func callAsFunction(_ message: String) {
    let line = message.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
    StandardStream.error.write("effectworker[\(kind.rawValue)]: \(line)\n")
  }
}
