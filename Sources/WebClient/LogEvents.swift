import HTTP
import JSON
import Wire

/// The action log as server-sent events, for the inspector: the daemon's
/// log is followed (docs/PROTOCOL.md, "The action log") over a connection of
/// the stream's own, and every record, old or new, is a `record` event whose
/// id is its version and whose data is the log entry's JSON.
///
/// The stream starts after `since` (or the browser's `Last-Event-ID`) when
/// given, else with the last `last` records (100 when not given); it ends,
/// with a `closed` event, when the daemon goes away or drops a follower
/// that fell behind, and the page follows again from its last version.
struct LogEvents: Sendable {
  let socketPath: String
  let app: String
  let daemonUser: DaemonUser

  static let defaultLast = 100

  func answer(_ request: HTTPRequest) -> HTTPResponse {
    var since: UInt64?
    if let text = request.header("Last-Event-ID") ?? request.query("since"), !text.isEmpty {
      guard let version = UInt64(text) else {
        return DaemonRequests.error(
          .invalidMessage, "'since' must be a version, a whole number; got '\(text.prefix(40))'", status: 400)
      }
      since = version
    }
    var last: Int? = since == nil ? Self.defaultLast : nil
    if let text = request.query("last") {
      guard let count = Int(text), count >= 1 else {
        return DaemonRequests.error(
          .invalidMessage, "'last' must be a count of at least 1; got '\(text.prefix(40))'", status: 400)
      }
      last = count
    }
    let (start, count) = (since, last)
    return HTTPResponse.eventStream { writer in
      let client: WireClient
      do {
        client = try DaemonRequests.connect(to: socketPath, name: "tcaweb log", app: app, daemonUser: daemonUser)
      } catch {
        _ = writer.write(StateEvents.closed("\(error)"))
        return
      }
      defer { client.close() }
      do {
        // The stream of new records starts once a page comes without `more`.
        var page = try client.log(since: start, last: count, follow: true)
        while true {
          for entry in page.records {
            guard writer.write(Self.event(for: entry)) else { return }
          }
          guard page.more, let shown = page.records.last?.version else { break }
          page = try client.log(since: shown, last: nil, follow: true)
        }
        while true {
          guard let message = try client.nextMessage(until: .now + StateEvents.keepAliveInterval) else {
            guard writer.write(ServerSentEvent.keepAlive) else { return }
            continue
          }
          switch message {
          case .record(let entry):
            guard writer.write(Self.event(for: entry)) else { return }
          case .goodbye, .notice, .error:
            _ = writer.write(StateEvents.event(for: message))
            return
          default:
            continue
          }
        }
      } catch {
        _ = writer.write(StateEvents.closed("\(error)"))
      }
    }
  }

  static func event(for entry: LogEntry) -> ServerSentEvent {
    ServerSentEvent(
      id: String(entry.version), event: "record",
      data: String(decoding: CanonicalJSON.encode(entry.json), as: UTF8.self))
  }
}
