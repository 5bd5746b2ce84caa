import JSON
import Wire

/// `tcactl stores`: the daemon's stores, open and closed, a page at a time
/// until the last: each one's version, clients, bytes on disk and newest
/// action.
enum StoreList {
  static func run(_ invocation: Invocation, client: WireClient) throws(ClientError) -> Invocation.ExitCode {
    var rows: [[String]] = [["STORE", "OPEN", "VERSION", "CLIENTS", "ON DISK", "LAST ACTION"]]
    var after: StoreName?
    while true {
      let page = try client.stores(after: after, limit: StoreListing.defaultLimit)
      for store in page.stores {
        if invocation.json {
          Terminal.line(CanonicalJSON.text(store.json))
        } else {
          rows.append(row(store))
        }
      }
      guard page.more else { break }
      guard let last = page.stores.last?.name else {
        throw .protocolViolation("'stores' said more stores follow a page that names none")
      }
      after = last
    }
    if !invocation.json { for line in table(rows) { Terminal.line(line) } }
    return .ok
  }

  /// A store as a row of the table.
  private static func row(_ store: StoreListing) -> [String] {
    let last: String
    if let problem = store.problem {
      last = problem
    } else if let action = store.lastAction {
      last = "\(ActionLog.timestamp(action.time))  \(action.summary)"
    } else {
      last = "-"
    }
    return [
      store.name?.text ?? "(default)", store.isOpen ? "yes" : "no", store.version.map(String.init) ?? "?",
      String(store.clients), size(store.bytes), last,
    ]
  }

  /// Rows in columns: left-aligned text, the last column as it is.
  private static func table(_ rows: [[String]]) -> [String] {
    guard let columns = rows.first?.count else { return [] }
    let widths = (0..<columns).map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      row.enumerated().map { column, text in
        column == columns - 1 ? text : text.padding(toLength: widths[column] + 2)
      }.joined()
    }
  }

  /// A byte count for a person: `512 B`, `24 KiB`, `3.1 MiB`.
  static func size(_ bytes: Int) -> String {
    guard bytes >= 1024 else { return "\(bytes) B" }
    let units = ["KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes) / 1024
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    let text = value < 10 ? String(Double(Int(value * 10)) / 10) : String(Int(value))
    return "\(text) \(units[unit])"
  }
}
