import JSON
import Wire

/// `tcactl watch`: follows the state live. It keeps its own copy, built from the
/// snapshot and every patch, so it can show old and new values — and so any
/// mismatch between the daemon's patches and its snapshot would show at once.
enum Watch {
  static func run(_ invocation: Invocation, client: WireClient) throws(ClientError) -> Invocation.ExitCode {
    let path = Invocation.pointer(fromStatePath: invocation.words.first)
    var state = TrackedState(nil)
    if let since = invocation.since, !invocation.json, invocation.epoch.map({ $0 == client.epoch }) ?? true {
      // Resuming: the diffs that follow apply to the state at `since`, which
      // the journal still holds unless it was compacted since; if not, the
      // values they replace show as `?`.
      state.document = try? client.get(path: path, at: since).value
    }
    // A subscription whose connection ends (the daemon restarts, or a
    // replicated store's leader changes) is taken up again once a daemon
    // answers, on the first of the sockets that does, after the last
    // version shown and in its epoch: the daemons of one store have the
    // same versions, so it resumes with the next change.
    var last = invocation.since
    var epoch = invocation.epoch
    var resuming = false
    func resume(_ why: String) throws(ClientError) {
      var why = why
      while true {
        try Reconnection.reconnect(client, after: why)
        do {
          try client.subscribe(path: path, since: last, epoch: epoch)
          resuming = last != nil
          return
        } catch .closed(let reason) {
          why = "the connection to \(client.path) ended (\(reason))"
        } catch .io(let error) {
          why = "the connection to \(client.path) ended (\(error))"
        }
      }
    }
    try client.subscribe(path: path, since: invocation.since, epoch: invocation.epoch)
    while true {
      let message: ServerMessage
      do {
        message = try client.nextMessage()
      } catch {
        switch error {
        case .closed, .io:
          try resume("the connection to \(client.path) ended (\(error))")
          continue
        default:
          throw error
        }
      }
      switch message {
      case .snapshot(let version, _, let value, let notice):
        (last, epoch, resuming) = (version, client.epoch, false)
        state.document = value
        if invocation.json {
          Terminal.line(CanonicalJSON.text(.object(["version": .int(Int(clamping: version)), "state": value])))
        } else {
          if let notice { Terminal.line(Terminal.yellow("(\(notice.rawValue): a fresh snapshot follows)")) }
          Terminal.line(Terminal.bold("version \(version)") + "  " + (path.isEmpty ? "state" : path))
          Terminal.line(JSONPrinter.pretty(value))
        }
      case .ack(_, let version):
        (last, epoch, resuming) = (version, client.epoch, false)
        if invocation.json {
          Terminal.line(
            CanonicalJSON.text(.object(["resumedAfter": .int(Int(clamping: version)), "epoch": .string(client.epoch)])))
        } else {
          Terminal.line(Terminal.dim("resuming after version \(version) (epoch \(client.epoch))"))
        }
      case .diff(let version, _, let summary, let patchJSON):
        (last, epoch) = (version, client.epoch)
        if invocation.json {
          Terminal.line(
            CanonicalJSON.text(
              .object(["version": .int(Int(clamping: version)), "action": .string(summary), "patch": patchJSON])))
          continue
        }
        let changes = try apply(patchJSON, version: version, to: &state)
        Terminal.line(ChangeText.header(version: version, action: summary, full: invocation.full))
        for change in changes { Terminal.line(ChangeText.line(change, full: invocation.full)) }
      case .goodbye(let reason):
        try resume("\(client.path) closed the subscription: \(reason)")
      case .error(_, .versionUnavailable, let text) where resuming:
        // The daemon does not hold the versions shown (it lost writes not
        // yet synced, or was restored from an older copy): its state
        // afresh, said so, rather than nothing.
        Terminal.error("\(text); watching its state afresh")
        resuming = false
        last = nil
        state.document = nil
        try client.subscribe(path: path, since: nil, epoch: nil)
      case let other:
        if let code = streamEnd(other, stream: "the subscription") { return code }
      }
    }
  }

  /// Applies the patch of `version` to `state`, returning its changes.
  ///
  /// - Throws: ``ClientError/protocolViolation(_:)`` when the patch is not a
  ///   JSON Patch or does not apply to the state held.
  static func apply(_ patchJSON: JSONValue, version: UInt64, to state: inout TrackedState) throws(ClientError)
    -> [Change]
  {
    let patch: [PatchOperation]
    do {
      patch = try JSONPatch.operations(from: patchJSON)
    } catch {
      throw .protocolViolation("version \(version) carries no valid JSON Patch: \(error)")
    }
    do {
      return try state.apply(patch)
    } catch {
      throw .protocolViolation("the patch of version \(version) does not apply to the state held: \(error)")
    }
  }

  /// What a message other than the stream's own means to a command that
  /// follows a stream (`watch`, `log --follow`, `send --wait`): a notice is
  /// shown; a goodbye or an error ends the command with its exit code;
  /// anything else (a heartbeat) is ignored.
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
}
