import ComposableCore

/// The daemon's log: one line per event on standard error.
enum Log {
  static func info(_ message: String) { write("storedaemon: \(message)") }
  static func warning(_ message: String) { write("storedaemon: warning: \(message)") }
  static func error(_ message: String) { write("storedaemon: error: \(message)") }

  private static func write(_ line: String) {
    StandardStream.error.write(line + "\n")
  }
}
