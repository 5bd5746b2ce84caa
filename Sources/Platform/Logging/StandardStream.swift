import Glibc

/// Standard output or standard error, written unbuffered and whole: each call
/// is written completely (short writes and interruptions retried), so lines
/// from a daemon or a `watch` appear at once and are never cut.
public enum StandardStream: Int32, Sendable {
  case output = 1
  case error = 2

  /// Writes `text`; gives up silently if the stream is closed.
  public func write(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        // invariant: offset < bytes.count: the buffer is not empty, so it has a base address
        let written = Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }
}
