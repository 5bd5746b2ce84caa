import ComposableCore
import Wire

/// `tcactl send PATH --wait`: sends the action, waits until every effect that
/// followed from it has finished, and prints each change they made with the
/// value it replaced, as `watch` and `log` do.
///
/// Before sending, it subscribes to the whole state on the same connection
/// and keeps a copy from the snapshot and every diff (its own and other
/// clients'), noting what each version replaced. The daemon's `settled`
/// answer lists the versions that followed from the action; their diffs came
/// before it on the connection (should one be missing, it reads on until the
/// timeout), so each is printed exactly.
///
/// Should the daemon resync this connection (more than `--client-buffer` of
/// other clients' diffs waiting for it), the fresh snapshot replaces the copy
/// and the versions it skipped were never seen: their changes are printed
/// from `settled`'s patches, with `?` for what they replaced.
enum SendAndWait {
  static func run(
    _ invocation: Invocation, path: String, arguments: [String], client: WireClient
  ) throws(ClientError) -> Invocation.ExitCode {
    if invocation.json {
      let (version, settled, changes) = try client.sendAndWait(path: path, arguments: arguments, timeout: invocation.timeout)
      Terminal.line(
        CanonicalJSON.text(.object(["version": .int(Int(clamping: version)), "settled": .int(Int(clamping: settled)), "changes": changes])))
      return .ok
    }
    let deadline = ContinuousClock.now + invocation.timeout
    var state = TrackedState(nil)
    var stateVersion: UInt64 = 0
    try client.subscribe()
    snapshot: while true {
      guard let message = try client.nextMessage(until: deadline) else {
        throw .timedOut("the daemon did not answer the subscription within \(invocation.timeout); nothing was sent")
      }
      switch message {
      case .snapshot(let version, _, let value, _):
        state.document = value
        stateVersion = version
        break snapshot
      case .error(_, let code, let message): throw .rejected(code: code, message: message)
      case .goodbye(let reason): throw .closed(reason: reason)
      default: continue
      }
    }

    let id = try client.post { .send(id: $0, action: .path(path, arguments: arguments), wait: true) }
    var seen: [UInt64: [Change]] = [:]
    var accepted: UInt64?
    var settled: (version: UInt64, changes: JSONValue)?
    // Done once the answer is in and every listed change that has a diff came.
    while accepted == nil || settled.map({ stateVersion < lastChanged($0.changes) }) ?? true {
      guard let message = try client.nextMessage(until: deadline) else {
        throw .timedOut(
          accepted.map { "the action was accepted as version \($0), but its effects were still running after \(invocation.timeout)" }
            ?? "the daemon did not answer the send within \(invocation.timeout)")
      }
      switch message {
      case .diff(let version, _, _, let patch):
        seen[version] = try Watch.apply(patch, version: version, to: &state)
        stateVersion = version
      case .snapshot(let version, _, let value, _):
        state.document = value
        stateVersion = version
      case .ack(id, let version): accepted = version
      case .settled(id, let version, let changes): settled = (version, changes)
      case .error(let errorID, let code, let message) where errorID == id || errorID == nil:
        throw .rejected(code: code, message: message)
      case .goodbye(let reason): throw .closed(reason: reason)
      case .notice(let notice, let message): Terminal.error("\(notice.rawValue): \(message)")
      default: continue
      }
    }
    guard let accepted, let settled else { return .ok }
    Terminal.line("accepted: version \(accepted); settled at version \(settled.version)")
    guard case .array(let entries) = settled.changes else { return .ok }
    for entry in entries {
      guard case .object(let fields) = entry, case .int(let version)? = fields["version"] else { continue }
      let summary = if case .string(let text)? = fields["action"] { text } else { "" }
      Terminal.line(ChangeText.header(version: UInt64(version), action: summary, full: invocation.full))
      var changes = seen[UInt64(version)]
      if changes == nil, let patch = fields["patch"] {
        var unknown = TrackedState(nil)
        changes = try Watch.apply(patch, version: UInt64(version), to: &unknown)
      }
      for change in changes ?? [] { Terminal.line(ChangeText.line(change, full: invocation.full)) }
    }
    return .ok
  }

  /// The last version among `changes` (`settled`'s list) whose patch is not
  /// empty: a version that changed nothing may have no diff.
  private static func lastChanged(_ changes: JSONValue) -> UInt64 {
    guard case .array(let entries) = changes else { return 0 }
    var last: UInt64 = 0
    for case .object(let fields) in entries {
      if case .int(let version)? = fields["version"], case .array(let patch)? = fields["patch"], !patch.isEmpty {
        last = max(last, UInt64(clamping: version))
      }
    }
    return last
  }
}
