/// One program's log: lines on ``LogStream`` that start with the program's
/// name, so that the daemon's log tells it and its workers apart.
///
/// The daemon's lines name their level after its name unless it is `info`
/// (`storedaemon: warning: …`); a worker's lines carry only its name
/// (`effectworker[timer]: …`), their level being in the journald priority.
/// docs/OPERATIONS.md shows both.
public struct Logger: Sendable {
  /// What each line starts with, before `: `.
  public let name: String
  /// Whether lines other than `info` say their level after the name.
  public let namesLevels: Bool

  public init(name: String, namesLevels: Bool) {
    self.name = name
    self.namesLevels = namesLevels
  }

  /// Writes one line at `level` (newlines inside `message` are shown as `\n`,
  /// so a line is always one record); the message is built only when a line
  /// at `level` is written.
  public func write(_ level: LogLevel, _ message: @autoclosure () -> String) {
    write(level, message(), fields: [])
  }

  /// Writes one entry at `level` with `fields` (`VERSION`, `CLIENT`, …),
  /// which journald keeps for `journalctl NAME=value` when entries go to it
  /// natively (``LogStream/journalSocket``); on a plain stream, the line.
  public func write(_ level: LogLevel, _ message: @autoclosure () -> String, fields: [(String, String)]) {
    guard LogStream.isEnabled(level) else { return }
    let text = message()
    // A worker's name, `effectworker[timer]`, is its program and its kind.
    let program = name.prefix { $0 != "[" }
    let kind = name.dropFirst(program.count + 1).prefix { $0 != "]" }
    LogStream.write(
      level, text, line: label(level) + text, identifier: String(program),
      fields: kind.isEmpty ? fields : [("WORKER", String(kind))] + fields)
  }

  /// What a line at `level` starts with: `storedaemon: warning: `.
  public func label(_ level: LogLevel) -> String {
    namesLevels && level != .info ? "\(name): \(level.name): " : "\(name): "
  }

  public func debug(_ message: @autoclosure () -> String) { write(.debug, message()) }
  public func info(_ message: @autoclosure () -> String) { write(.info, message()) }
  public func warning(_ message: @autoclosure () -> String) { write(.warning, message()) }
  public func error(_ message: @autoclosure () -> String) { write(.error, message()) }
}
