import Glibc

/// The daemon's log: one line per event on standard error.
enum Log {
  static func info(_ message: String) { write("storedaemon: \(message)") }
  static func warning(_ message: String) { write("storedaemon: warning: \(message)") }
  static func error(_ message: String) { write("storedaemon: error: \(message)") }

  private static func write(_ line: String) {
    var line = line + "\n"
    line.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(2, bytes.baseAddress! + offset, bytes.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }
}
