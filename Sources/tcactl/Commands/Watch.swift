import ComposableCore
import Wire

/// `tcactl watch`: follows the state live. It keeps its own copy, built from the
/// snapshot and every patch, so it can show old and new values — and so any
/// mismatch between the daemon's patches and its snapshot would show at once.
enum Watch {
  static func run(_ invocation: Invocation, client: WireClient) throws(ClientError) -> Invocation.ExitCode {
    let path = Invocation.pointer(fromStatePath: invocation.words.first)
    try client.subscribe(path: path, since: invocation.since, epoch: invocation.epoch)
    var document: JSONValue?
    while true {
      switch try client.nextMessage() {
      case .snapshot(let version, _, let value, let notice):
        document = value
        if invocation.json {
          Terminal.line(CanonicalJSON.text(.object(["version": .int(Int(clamping: version)), "state": value])))
        } else {
          if let notice { Terminal.line(Terminal.yellow("(\(notice.rawValue): a fresh snapshot follows)")) }
          Terminal.line(Terminal.bold("version \(version)") + "  " + (path.isEmpty ? "state" : path))
          Terminal.line(JSONPrinter.pretty(value))
        }
      case .ack(_, let version):
        if invocation.json {
          Terminal.line(CanonicalJSON.text(.object(["resumedAfter": .int(Int(clamping: version)), "epoch": .string(client.epoch)])))
        } else {
          Terminal.line(Terminal.dim("resuming after version \(version) (epoch \(client.epoch))"))
        }
      case .diff(let version, _, let summary, let patchJSON):
        let patch: [PatchOperation]
        do {
          patch = try JSONPatch.operations(from: patchJSON)
        } catch {
          throw .protocolViolation("diff \(version) carries no valid JSON Patch: \(error)")
        }
        if invocation.json {
          Terminal.line(
            CanonicalJSON.text(.object(["version": .int(Int(clamping: version)), "action": .string(summary), "patch": patchJSON])))
        } else {
          Terminal.line(Terminal.bold("v\(version)") + "  " + summary)
        }
        // One operation at a time, so each shows the value it replaced.
        for operation in patch {
          if !invocation.json { Terminal.line("    " + describe(operation, before: document)) }
          guard let current = document else { continue }
          do {
            document = try JSONPatch.apply([operation], to: current)
          } catch {
            throw .protocolViolation("diff \(version) does not apply to the state held: \(error)")
          }
        }
      case let other:
        if let code = streamEnd(other, stream: "the subscription") { return code }
      }
    }
  }

  /// What a message other than the stream's own means to a command that
  /// follows a stream (`watch`, `log --follow`): a notice is shown; a
  /// goodbye or an error ends the command with its exit code; anything else
  /// (a heartbeat) is ignored.
  static func streamEnd(_ message: ServerMessage, stream: String) -> Invocation.ExitCode? {
    switch message {
    case .notice(let notice, let text):
      Terminal.error("\(notice.rawValue): \(text)")
      return nil
    case .goodbye(let reason):
      Terminal.error("the daemon closed \(stream): \(reason)")
      return .ok
    case .error(_, _, let text):
      Terminal.error(text)
      return .rejected
    default:
      return nil
    }
  }

  /// One line for a patch operation; with `before`, replaced and removed
  /// values show what they were.
  static func describe(_ operation: PatchOperation, before: JSONValue?) -> String {
    let old: (JSONPointer) -> JSONValue? = { path in before.flatMap { path.value(in: $0) } }
    switch operation {
    case .add(let path, let value):
      return Terminal.green("+ \(path) = \(JSONPrinter.short(value))")
    case .remove(let path):
      let was = old(path).map { " (was \(JSONPrinter.short($0, limit: 60)))" } ?? ""
      return Terminal.red("- \(path)\(was)")
    case .replace(let path, let value):
      let was = old(path).map { JSONPrinter.short($0, limit: 60) + " → " } ?? ""
      return Terminal.yellow("~ \(path.isRoot ? "(all)" : path.description): \(was)\(JSONPrinter.short(value))")
    case .move(let from, let path):
      return "→ \(from) moved to \(path)"
    case .copy(let from, let path):
      return "⧉ \(from) copied to \(path)"
    case .test(let path, _):
      return "? \(path)"
    }
  }
}
