import JSON
import Wire

/// `tcactl what-if`: the state at a version as it would be with an earlier
/// action left out or replaced, as the changes from the recorded state.
enum WhatIf {
  static func run(_ invocation: Invocation, client: WireClient) throws(ClientError) -> Invocation.ExitCode {
    // The parser refuses a what-if without --without or --replace.
    // invariant: the parser refuses a what-if without --without or --replace (Invocation.validate), before a command
    // runs
    let version = invocation.edited!
    let edit: ClientMessage.HistoryEdit
    if let path = invocation.words.first {
      edit = .replace(version: version, action: .path(path, arguments: Array(invocation.words.dropFirst())))
    } else {
      edit = .without(version: version)
    }
    let answer = try client.whatIf(at: invocation.at, edit: edit)
    if invocation.json {
      Terminal.line(
        CanonicalJSON.text(
          .object([
            "version": .int(Int(clamping: answer.version)), "edited": .int(Int(clamping: version)),
            "recorded": answer.recorded, "patch": answer.patch, "notes": .array(answer.notes.map(JSONValue.string)),
          ])))
      return .ok
    }
    var state = TrackedState(answer.recorded)
    let changes = try Watch.apply(answer.patch, version: answer.version, to: &state)
    let change =
      if case .replace(_, .path(let path, let arguments)) = edit {
        "with \(([path] + arguments).joined(separator: " ")) as version \(version)"
      } else {
        "without version \(version)"
      }
    if changes.isEmpty {
      Terminal.line("the state at version \(answer.version) would be the same \(change)")
    } else {
      Terminal.line("the state at version \(answer.version) \(change) (recorded → would be):")
      for line in changes { Terminal.line(ChangeText.line(line, full: invocation.full)) }
    }
    for note in answer.notes { Terminal.line(Terminal.dim(note)) }
    return .ok
  }
}
