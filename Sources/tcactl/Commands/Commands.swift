import JSON
import Wire

/// The commands of `tcactl`; each returns its exit code.
enum Commands {
  static func send(_ invocation: Invocation, client: WireClient) throws(ClientError) -> Invocation.ExitCode {
    // The parser refuses a send without a path.
    let path = invocation.words[0]
    let arguments = Array(invocation.words.dropFirst())
    if invocation.wait {
      return try SendAndWait.run(invocation, path: path, arguments: arguments, client: client)
    }
    let version = try client.send(path: path, arguments: arguments)
    if invocation.json {
      Terminal.line(CanonicalJSON.text(.object(["version": .int(Int(clamping: version))])))
    } else {
      Terminal.line("accepted: version \(version)")
    }
    return .ok
  }

  static func get(_ invocation: Invocation, client: WireClient) throws(ClientError) -> Invocation.ExitCode {
    let (_, value) = try client.get(path: Invocation.pointer(fromStatePath: invocation.words.first), at: invocation.at)
    Terminal.line(invocation.json ? CanonicalJSON.text(value) : JSONPrinter.pretty(value))
    return .ok
  }

  static func status(_ invocation: Invocation, client: WireClient) throws(ClientError) -> Invocation.ExitCode {
    let report = try client.status()
    if invocation.json {
      Terminal.line(CanonicalJSON.text(report))
      return .ok
    }
    guard case .object(let fields) = report else { throw .protocolViolation("'status' must be an object") }
    for key in [
      "server", "pid", "uptimeSeconds", "version", "epoch", "clients", "subscribers", "effectsInFlight", "socket",
      "stateDirectory",
    ] {
      if let value = fields[key] {
        let text = if case .string(let string) = value { string } else { CanonicalJSON.text(value) }
        Terminal.line("\(key.padding(toLength: 16))\(text)")
      }
    }
    // A daemon of a replicated store: which, what it does, and who leads.
    if case .object(let replication)? = fields["replication"] {
      Terminal.line("replication")
      for key in ["store", "role"] {
        if case .string(let value)? = replication[key] { Terminal.line("  \(key.padding(toLength: 9))\(value)") }
      }
      if case .object(let leader)? = replication["leader"], case .string(let node)? = leader["node"],
        case .string(let socket)? = leader["socket"]
      {
        Terminal.line("  \("leader".padding(toLength: 9))\(node) (\(socket))")
      }
    }
    if case .array(let workers)? = fields["workers"] {
      Terminal.line("workers")
      let columns = ["kind", "state", "pid", "restarts", "inFlight", "queued", "lastExit"]
      let rows =
        [["KIND", "STATE", "PID", "RESTARTS", "IN FLIGHT", "QUEUED", "LAST EXIT"]]
        + workers.map { worker in
          columns.map { key -> String in
            guard case .object(let fields) = worker, let value = fields[key] else { return "-" }
            if case .string(let string) = value { return string }
            return CanonicalJSON.text(value)
          }
        }
      let widths = (0..<columns.count).map { column in rows.map { $0[column].count }.max() ?? 0 }
      for row in rows {
        let cells = row.enumerated().map { column, cell in
          column == row.count - 1 ? cell : cell.padding(toLength: widths[column] + 2)
        }
        Terminal.line("  " + cells.joined())
      }
    }
    return .ok
  }
}

extension String {
  func padding(toLength length: Int) -> String {
    count >= length ? self : self + String(repeating: " ", count: length - count)
  }
}
