import ComposableCore
import Platform

/// The daemon's log: one line per event on standard error, with journald
/// priorities under systemd (``LogStream``), filtered by `--log-level`.
enum Log {
  static func debug(_ message: @autoclosure () -> String) {
    guard LogStream.isEnabled(.debug) else { return }
    LogStream.write(.debug, "storedaemon: debug: \(message())")
  }
  static func info(_ message: String) { LogStream.write(.info, "storedaemon: \(message)") }
  static func warning(_ message: String) { LogStream.write(.warning, "storedaemon: warning: \(message)") }
  static func error(_ message: String) { LogStream.write(.error, "storedaemon: error: \(message)") }
}
