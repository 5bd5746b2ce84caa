import ComposableCore
import Glibc
import Wire

/// `tcactl log`: the history of actions from the daemon's journal — when each
/// happened, who sent it and what it changed — and, with `--follow`, every new
/// one as it becomes durable.
enum ActionLog {
  /// Records shown when neither `-n` nor `--since` says how many.
  static let defaultCount = 20

  static func run(_ invocation: Invocation, client: WireClient) throws(ClientError) -> Invocation.ExitCode {
    let last = invocation.last ?? (invocation.since == nil ? defaultCount : nil)
    var page = try client.log(since: invocation.since, last: last, follow: invocation.follow)
    // Without --follow, the log ends where the first page says it does.
    let end = page.through
    var shown = 0
    while true {
      for entry in page.records where invocation.follow || entry.version <= end {
        show(entry, json: invocation.json)
        shown += 1
      }
      guard page.more, let lastShown = page.records.last?.version, invocation.follow || lastShown < end else { break }
      page = try client.log(since: lastShown, last: nil, follow: invocation.follow)
    }
    guard invocation.follow else {
      if shown == 0 && !invocation.json {
        Terminal.line(Terminal.dim("no actions after version \(invocation.since ?? 0) (the state is at version \(end))"))
      }
      return .ok
    }
    while true {
      switch try client.nextMessage() {
      case .record(let entry):
        show(entry, json: invocation.json)
      case let other:
        if let code = Watch.streamEnd(other, stream: "the log") { return code }
      }
    }
  }

  static func show(_ entry: LogEntry, json: Bool) {
    if json {
      Terminal.line(CanonicalJSON.text(entry.json))
      return
    }
    Terminal.line(
      Terminal.bold("v\(entry.version)") + "  " + Terminal.dim(timestamp(entry.time)) + "  " + sender(entry.origin) + "  "
        + entry.summary)
    guard let operations = try? JSONPatch.operations(from: entry.patch) else { return }
    for operation in operations { Terminal.line("    " + Watch.describe(operation, before: nil)) }
  }

  /// Who sent the action, from the record's origin.
  static func sender(_ origin: JSONValue) -> String {
    guard case .object(let fields) = origin else { return "?" }
    let number = if case .int(let origin)? = fields["origin"] { "#\(origin)" } else { "" }
    if case .string(let client)? = fields["client"] {
      return "\(client.isEmpty ? "client" : client) (\(number))"
    }
    if fields["effect"] != nil { return "effect of \(number)" }
    if fields["recovery"] != nil { return "storedaemon (recovery \(number))" }
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
