import ComposableCore
import Platform

/// The worker's log: one line per call on standard error, prefixed
/// `effectworker[<kind>]:` so the daemon's log tells its workers apart, with
/// journald priorities under systemd (``LogStream``).
package struct WorkerLog: Sendable {
  package let kind: WorkerKind

  /// Writes one line at `level`; newlines inside `message` are shown as `\n`
  /// so a line is always one record.
  package func callAsFunction(_ message: String, level: LogLevel = .info) {
    LogStream.write(level, "effectworker[\(kind.rawValue)]: \(message)")
  }
}
