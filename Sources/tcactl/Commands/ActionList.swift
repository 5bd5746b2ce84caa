import JSON
import Wire

/// `tcactl actions`: every action path a client may send, with its arguments
/// and what it does; with `--all`, also the internal ones that only effects
/// and the daemon send, each marked with who sends it.
enum ActionList {
  /// The column the summaries start at.
  static let summaryColumn = 56

  static func run(_ invocation: Invocation, client: WireClient) throws(ClientError) -> Invocation.ExitCode {
    let actions = try client.actions(all: invocation.all)
    if invocation.json {
      Terminal.line(CanonicalJSON.text(actions))
      return .ok
    }
    guard case .array(let entries) = actions else { throw .protocolViolation("'actions' must be an array") }
    for case .object(let fields) in entries {
      if let line = line(for: fields) { Terminal.line(line) }
    }
    return .ok
  }

  /// `cart.addItem <Int>   Adds one unit…`, then for an internal action
  /// `[internal: sent by the HTTP effect]`.
  static func line(for fields: JSONObject) -> String? {
    guard case .string(var line)? = fields["usage"] else { return nil }
    if case .string(let summary)? = fields["summary"], !summary.isEmpty {
      line = line.padding(toLength: max(line.count, summaryColumn)) + "  " + Terminal.dim(summary)
    }
    if fields["internal"] == .bool(true) {
      let sender = if case .string(let sender)? = fields["sentBy"] { "sent by \(sender)" } else { "sent by effects" }
      line += "  " + Terminal.yellow("[internal: \(sender)]")
    }
    return line
  }
}
