import HTTP
import JSON
import Wire

/// The state as server-sent events: the web client subscribes to the
/// daemon for the page, over a connection of its own, and passes on what
/// the daemon sends, each message as an event named after its `type` with
/// the message's JSON as its data.
///
/// - First comes `welcome`, the daemon's name, epoch and version.
/// - Then a `snapshot`, or after a reconnect with the last version seen
///   (`since`, or the browser's `Last-Event-ID`) and the epoch (`epoch`),
///   the `diff`s missed, as the daemon resumes any subscriber
///   (docs/PROTOCOL.md, "Versions, subscriptions and slow subscribers").
/// - `snapshot`, `diff` and `heartbeat` carry their version as the event's
///   id.
///
/// When the daemon cannot be reached, or goes away (restarted, say), the
/// stream says so in a `closed` event and ends; so it does after the
/// daemon's `goodbye`. The page then connects again with its last version. A page
/// that stops reading is one slow subscriber: the daemon resyncs or drops
/// it, and never waits for it.
struct StateEvents: Sendable {
  let socketPath: String
  let app: String
  let daemonUser: DaemonUser

  /// How long a stream may be silent before a comment checks that the
  /// browser is still there.
  static let keepAliveInterval: Duration = .seconds(15)

  /// The stream for `request`, or the error to answer.
  func answer(_ request: HTTPRequest) -> HTTPResponse {
    let path = request.query("path") ?? ""
    let sinceText = request.header("Last-Event-ID") ?? request.query("since")
    var since: UInt64?
    if let sinceText, !sinceText.isEmpty {
      guard let version = UInt64(sinceText) else {
        return DaemonRequests.error(
          .invalidMessage, "'since' must be a version, a whole number; got '\(sinceText.prefix(40))'", status: 400)
      }
      since = version
    }
    let epoch = request.query("epoch").flatMap { $0.isEmpty ? nil : $0 }
    let resumeAfter = since
    return HTTPResponse.eventStream { writer in
      // The daemon's connection is made and used on the stream's thread.
      let client: WireClient
      do {
        client = try DaemonRequests.connect(to: socketPath, name: "tcaweb events", app: app, daemonUser: daemonUser)
        try client.subscribe(path: path, since: resumeAfter, epoch: epoch)
      } catch {
        _ = writer.write(Self.closed("\(error)"))
        return
      }
      defer { client.close() }
      let welcome: JSONValue = .object([
        "type": .string("welcome"), "server": .string(client.server), "epoch": .string(client.epoch),
        "version": .int(Int(clamping: client.versionAtConnect)),
      ])
      guard writer.write(ServerSentEvent(event: "welcome", data: Self.text(welcome))) else { return }
      while true {
        let message: ServerMessage?
        do {
          message = try client.nextMessage(until: .now + Self.keepAliveInterval)
        } catch {
          _ = writer.write(Self.closed("\(error)"))
          return
        }
        guard let message else {
          guard writer.write(ServerSentEvent.keepAlive) else { return }
          continue
        }
        guard writer.write(Self.event(for: message)) else { return }
        switch message {
        case .goodbye, .error(nil, _, _): return
        default: continue
        }
      }
    }
  }

  /// The event that carries `message`.
  static func event(for message: ServerMessage) -> ServerSentEvent {
    let json = message.json
    var type = "message"
    if case .object(let object) = json, case .string(let named)? = object["type"] { type = named }
    var id: String?
    switch message {
    case .snapshot(let version, _, _, _), .diff(let version, _, _, _), .heartbeat(let version), .ack(_, let version):
      id = String(version)
    default:
      id = nil
    }
    return ServerSentEvent(id: id, event: type, data: text(json))
  }

  /// The event that says why a stream ends: `reason`, as a JSON string.
  static func closed(_ reason: String) -> ServerSentEvent {
    ServerSentEvent(event: "closed", data: text(.string(reason)))
  }

  private static func text(_ json: JSONValue) -> String {
    String(decoding: CanonicalJSON.encode(json), as: UTF8.self)
  }
}
