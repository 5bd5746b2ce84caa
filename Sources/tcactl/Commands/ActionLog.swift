import Glibc
import JSON
import Wire

/// `tcactl log`: the history of actions from the daemon's journal — when each
/// happened, who sent it and what it changed — and, with `--follow`, every new
/// one as it becomes durable.
///
/// To show each replaced value, it fetches the state just before the first
/// record (`get` at that version; the journal holds it for any record it
/// returns) and applies every record's patch in order: records are
/// contiguous, so the copy is exact, also while following.
enum ActionLog {
  /// Records shown when neither `-n` nor `--since` says how many.
  static let defaultCount = 20

  static func run(_ invocation: Invocation, client: WireClient) throws(ClientError) -> Invocation.ExitCode {
    // The welcome's server is "NAME VERSION": recoveries are the daemon's own.
    let daemon = client.server.split(separator: " ").first.map(String.init) ?? invocation.app
    var printer = Printer(json: invocation.json, full: invocation.full, daemon: daemon)
    let last = invocation.last ?? (invocation.since == nil ? defaultCount : nil)
    var page = try client.log(since: invocation.since, last: last)
    // The history ends where the first page says it does; what comes after
    // is for --follow.
    let end = page.through
    if !page.records.isEmpty || invocation.follow {
      try printer.start(before: page.records.first?.version ?? end + 1, client: client)
    }
    var shown = end
    while true {
      for entry in page.records where entry.version <= end { try printer.show(entry) }
      guard page.more, let lastShown = page.records.last?.version, lastShown < end else { break }
      page = try client.log(since: lastShown, last: nil)
    }
    guard invocation.follow else {
      if printer.count == 0 && !invocation.json {
        Terminal.line(
          Terminal.dim("no actions after version \(invocation.since ?? 0) (the state is at version \(end))"))
      }
      return .ok
    }
    // A stream whose connection ends (the daemon restarts, or a replicated
    // store's leader changes) is taken up again once a daemon answers,
    // after the last record shown.
    while true {
      do {
        return try follow(client, after: &shown, printer: &printer)
      } catch .closed(let reason) {
        try Reconnection.reconnect(client, after: "the connection to \(client.path) ended (\(reason))")
      } catch .io(let error) {
        try Reconnection.reconnect(client, after: "the connection to \(client.path) ended (\(error))")
      }
    }
  }

  /// Follows the log after `shown` on the client's connection, until the
  /// daemon ends the stream (returning the exit code) or the connection
  /// ends (throwing ``ClientError/closed(reason:)`` or ``ClientError/io(_:)``).
  private static func follow(
    _ client: WireClient, after shown: inout UInt64, printer: inout Printer
  ) throws(ClientError) -> Invocation.ExitCode {
    // The stream starts once a page comes without `more`.
    var page: (records: [LogEntry], through: UInt64, more: Bool)
    repeat {
      page = try client.log(since: shown, last: nil, follow: true)
      for entry in page.records { try printer.show(entry) }
      shown = page.records.last?.version ?? shown
    } while page.more
    while true {
      switch try client.nextMessage() {
      case .record(let entry):
        try printer.show(entry)
        shown = entry.version
      case .goodbye(let reason):
        throw .closed(reason: reason)
      case let other:
        if let code = Watch.streamEnd(other, stream: "the log") { return code }
      }
    }
  }

  /// Writes log entries, keeping the state they apply to.
  struct Printer {
    let json: Bool
    let full: Bool
    /// The daemon's name, which sends the recovery actions.
    let daemon: String
    private var state = TrackedState(nil)
    /// The version the state held is at, once known.
    private var version: UInt64?
    private(set) var count = 0

    init(json: Bool, full: Bool, daemon: String) {
      self.json = json
      self.full = full
      self.daemon = daemon
    }

    /// Fetches the state just before `first`, the first version to show. A
    /// version the journal no longer holds (compacted since the page was
    /// read) leaves it unknown: replaced values then show as `?`.
    mutating func start(before first: UInt64, client: WireClient) throws(ClientError) {
      guard !json, first > 0 else { return }
      do {
        state.document = try client.get(path: "", at: first - 1).value
        version = first - 1
      } catch .rejected {
        state.document = nil
      }
    }

    mutating func show(_ entry: LogEntry) throws(ClientError) {
      count += 1
      if json {
        Terminal.line(CanonicalJSON.text(entry.json))
        return
      }
      // A gap (which the journal never leaves) would make the copy wrong: forget it.
      if version.map({ $0 + 1 != entry.version }) ?? true { state.document = nil }
      version = entry.version
      let changes = try Watch.apply(entry.patch, version: entry.version, to: &state)
      Terminal.line(
        ChangeText.header(
          version: entry.version,
          details: [ActionLog.timestamp(entry.time), ActionLog.sender(entry.origin, daemon: daemon)],
          action: entry.summary, full: full))
      for change in changes { Terminal.line(ChangeText.line(change, full: full)) }
    }
  }

  /// Who sent the action, from the record's origin.
  static func sender(_ origin: JSONValue, daemon: String) -> String {
    guard case .object(let fields) = origin else { return "?" }
    let number = if case .int(let origin)? = fields["origin"] { "#\(origin)" } else { "" }
    if case .string(let client)? = fields["client"] {
      return "\(client.isEmpty ? "client" : client) (\(number))"
    }
    if fields["effect"] != nil { return "effect of \(number)" }
    if fields["recovery"] != nil { return "\(daemon) (recovery \(number))" }
    if fields["migration"] != nil {
      if case .string(let build)? = fields["build"] { return "\(build) (migration)" }
      return "\(daemon) (migration)"
    }
    return CanonicalJSON.text(origin)
  }

  /// Milliseconds since the Unix epoch as local time, e.g. `2026-11-21 10:32:01.123`.
  static func timestamp(_ milliseconds: Int64) -> String {
    var seconds = time_t(milliseconds / 1000)
    var parts = tm()
    localtime_r(&seconds, &parts)
    var buffer = [CChar](repeating: 0, count: 32)
    let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
    let text = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let fraction = String(Int(milliseconds % 1000))
    return text + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}
