import JSON
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
      let (version, settled, changes) = try client.sendAndWait(
        path: path, arguments: arguments, timeout: invocation.timeout)
      Terminal.line(
        CanonicalJSON.text(
          .object([
            "version": .int(Int(clamping: version)), "settled": .int(Int(clamping: settled)), "changes": changes,
          ])))
      return .ok
    }
    // A standby's `not_leader` starts it over at the leader, subscription and all.
    let (accepted, settled, seen) = try client.followingTheLeader { () throws(ClientError) in
      try sendAndFollow(client, path: path, arguments: arguments, timeout: invocation.timeout)
    }
    Terminal.line("accepted: version \(accepted); settled at version \(settled.version)")
    try show(settled.changes, seen: seen, full: invocation.full)
    return .ok
  }

  /// Subscribes, sends the action and reads until it has settled and
  /// every change it lists has come: the version it produced, `settled`'s
  /// version and changes, and the changes seen, by version.
  private static func sendAndFollow(
    _ client: WireClient, path: String, arguments: [String], timeout: Duration
  ) throws(ClientError) -> (UInt64, (version: UInt64, changes: JSONValue), [UInt64: [Change]]) {
    let deadline = ContinuousClock.now + timeout
    var (state, stateVersion) = try subscribe(client, until: deadline, timeout: timeout)
    let id = try client.post { .send(id: $0, action: .path(path, arguments: arguments), wait: true) }
    var seen: [UInt64: [Change]] = [:]
    var accepted: UInt64?
    var settled: (version: UInt64, changes: JSONValue)?
    // Done once the answer is in and every listed change that has a diff came.
    while accepted == nil || settled.map({ stateVersion < lastChanged($0.changes) }) ?? true {
      let next: ServerMessage?
      do {
        next = try client.nextMessage(until: deadline)
      } catch {
        // The connection ended: before the answer, the action may or may not have been applied.
        throw accepted == nil ? .unanswered(error) : error
      }
      guard let message = next else {
        throw .timedOut(
          accepted.map {
            "the action was accepted as version \($0), but its effects were still running after \(timeout)"
          }
            ?? "the daemon did not answer the send within \(timeout)")
      }
      switch message {
      case .diff(let version, _, _, let patch):
        seen[version] = try Watch.apply(patch, version: version, to: &state)
        stateVersion = version
      case .snapshot(let version, _, let value, _):
        // Resynced: the versions before it were never seen.
        state.document = value
        stateVersion = version
      case .ack(id, let version): accepted = version
      case .settled(id, let version, let changes): settled = (version, changes)
      case .error(let errorID, let code, let message) where errorID == id || errorID == nil:
        throw .rejected(code: code, message: message)
      case .notLeader(id, let message, let leader): throw .notLeader(message: message, leader: leader)
      case .goodbye(let reason): throw .closed(reason: reason)
      case .notice(let notice, let message): Terminal.error("\(notice.rawValue): \(message)")
      default: continue
      }
    }
    guard let accepted, let settled else { throw .protocolViolation("the send ended without its answer") }
    return (accepted, settled, seen)
  }

  /// Subscribes to the whole state and reads its snapshot: the copy the
  /// diffs that follow apply to, and its version.
  private static func subscribe(
    _ client: WireClient, until deadline: ContinuousClock.Instant, timeout: Duration
  ) throws(ClientError) -> (TrackedState, UInt64) {
    try client.subscribe()
    while true {
      guard let message = try client.nextMessage(until: deadline) else {
        throw .timedOut("the daemon did not answer the subscription within \(timeout); nothing was sent")
      }
      switch message {
      case .snapshot(let version, _, let value, _): return (TrackedState(value), version)
      case .error(_, let code, let message): throw .rejected(code: code, message: message)
      case .goodbye(let reason): throw .closed(reason: reason)
      default: continue
      }
    }
  }

  /// Prints each change `settled` lists: as seen, with what it replaced, or
  /// (skipped by a resync) from its patch, with `?`.
  private static func show(_ changes: JSONValue, seen: [UInt64: [Change]], full: Bool) throws(ClientError) {
    guard case .array(let entries) = changes else { return }
    for entry in entries {
      guard case .object(let fields) = entry, case .int(let number)? = fields["version"] else { continue }
      let version = UInt64(clamping: number)
      let summary = if case .string(let text)? = fields["action"] { text } else { "" }
      Terminal.line(ChangeText.header(version: version, action: summary, full: full))
      var lines = seen[version]
      if lines == nil, let patch = fields["patch"] {
        var unknown = TrackedState(nil)
        lines = try Watch.apply(patch, version: version, to: &unknown)
      }
      for change in lines ?? [] { Terminal.line(ChangeText.line(change, full: full)) }
    }
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
