import Glibc
import Synchronization

/// How much a log line matters, numbered as syslog's and journald's priorities.
public enum LogLevel: Int, Sendable, CaseIterable, Comparable {
  case error = 3
  case warning = 4
  case info = 6
  case debug = 7

  /// The level called `name` (`error`, `warning`, `info`, `debug`).
  public init?(name: String) {
    guard let level = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = level
  }

  public var name: String {
    switch self {
    case .error: "error"
    case .warning: "warning"
    case .info: "info"
    case .debug: "debug"
    }
  }

  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue > rhs.rawValue }
}

/// Log lines on standard error, shared by the daemon and its workers.
///
/// Under systemd, when standard error is the journal's stream (`$JOURNAL_STREAM`
/// names its device and inode, as systemd.exec(5) describes), each line starts
/// with its priority, `<3>` … `<7>` (sd-daemon(3)), so that journald records
/// it and `journalctl -p warning` can select it. Anywhere else, plain lines.
/// Lines below the threshold (``minimumLevel``, `info` unless set) are dropped.
public enum LogStream {
  private static let threshold = Atomic<Int>(LogLevel.info.rawValue)

  /// The least important level written.
  public static var minimumLevel: LogLevel {
    get { LogLevel(rawValue: threshold.load(ordering: .relaxed)) ?? .info }
    set { threshold.store(newValue.rawValue, ordering: .relaxed) }
  }

  /// Whether standard error is connected to the journal.
  public static let isJournal: Bool = {
    guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
    return isJournalStream(value, descriptor: 2)
  }()

  /// Whether `value` (`$JOURNAL_STREAM`, "device:inode") names the file `descriptor` is.
  public static func isJournalStream(_ value: String, descriptor: Int32) -> Bool {
    let parts = value.split(separator: ":")
    guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return false }
    return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
  }

  /// Where entries go over journald's native protocol (``JournalNative``),
  /// with their fields: journald's socket, when standard error is the
  /// journal's stream and the socket exists; nil otherwise (lines on
  /// standard error, as above). Debug builds take another path from
  /// `STOREDAEMON_JOURNAL_SOCKET`, for tests.
  public static let journalSocket: String? = {
    guard isJournal else { return nil }
    var path = JournalNative.defaultSocket
    #if DEBUG
      if let override = getenv("STOREDAEMON_JOURNAL_SOCKET") { path = String(cString: override) }
    #endif
    return access(path, F_OK) == 0 ? path : nil
  }()

  private static let sharedFields = Mutex<[(String, String)]>([])

  /// Fields every entry of this process carries, e.g. `STORE`.
  public static var commonFields: [(String, String)] {
    get { sharedFields.withLock { $0 } }
    set { sharedFields.withLock { $0 = newValue } }
  }

  /// Writes `message` at `level` from the program `identifier`, with
  /// `fields`: an entry over journald's native protocol when there is one
  /// (``journalSocket``), else the line `line` as ``write(_:_:)`` does.
  public static func write(
    _ level: LogLevel, _ message: String, line text: @autoclosure () -> String, identifier: String,
    fields: [(String, String)]
  ) {
    guard isEnabled(level) else { return }
    if let journalSocket {
      let entry =
        [("MESSAGE", message), ("PRIORITY", String(level.rawValue)), ("SYSLOG_IDENTIFIER", identifier)]
        + commonFields + fields
      if JournalNative.send(entry, to: journalSocket) { return }
    }
    StandardStream.error.write(line(level, text(), journal: isJournal))
  }

  /// Whether a line at `level` would be written.
  public static func isEnabled(_ level: LogLevel) -> Bool {
    level.rawValue <= threshold.load(ordering: .relaxed)
  }

  /// Writes `message` at `level`: one line (newlines inside are shown as `\n`).
  public static func write(_ level: LogLevel, _ message: String) {
    guard isEnabled(level) else { return }
    StandardStream.error.write(line(level, message, journal: isJournal))
  }

  /// The line written for `message` at `level`.
  public static func line(_ level: LogLevel, _ message: String, journal: Bool) -> String {
    let text =
      message.contains("\n")
      ? message.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n") : message
    return (journal ? "<\(level.rawValue)>" : "") + text + "\n"
  }
}
