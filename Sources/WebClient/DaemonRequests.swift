import HTTP
import JSON
import Wire

/// Forwards a browser's request to the daemon as the Wire message it names,
/// over a connection of its own, and answers with the daemon's answer as
/// JSON: the page gets what `tcactl` gets, errors included.
struct DaemonRequests: Sendable {
  let socketPath: String
  let app: String
  let daemonUser: DaemonUser

  /// The requests a page may make. A subscription is the event stream's;
  /// `hello` is the web client's own.
  static let forwarded: Set<String> = ["send", "get", "actions", "status", "log", "whatIf"]

  /// Answers `body`, a client message without its `id` (docs/PROTOCOL.md,
  /// "Client messages"): 200 with the daemon's answer, 400 with an `error`
  /// message for what the daemon or this client refuses, 503 when the
  /// daemon cannot be reached (nothing was sent, and the page may send it
  /// again), 502 when the daemon went away after the message was sent (it
  /// may or may not have been applied).
  func answer(_ body: [UInt8]) -> HTTPResponse {
    let message: ClientMessage
    do {
      message = try Self.message(from: body)
    } catch {
      return Self.error(error.code, error.message, status: 400)
    }
    let client: WireClient
    do {
      client = try WireClient(path: socketPath, clientName: "tcaweb", daemon: app, daemonUser: daemonUser)
    } catch {
      return Self.error(.internal, "\(error)", status: 503)
    }
    defer { client.close() }
    do {
      let id = try client.post { message.withID($0) }
      while true {
        let answer = try client.nextMessage()
        switch answer {
        case .error(let errorID, let code, let text) where errorID == id || errorID == nil:
          return Self.error(code, text, status: 400)
        case .notLeader(id, _, _):
          // The refusal as the daemon gave it, naming the leader.
          return .json(CanonicalJSON.encode(answer.json), status: 400)
        case .ack(id, _), .state(id, _, _, _), .actions(id, _), .status(id, _), .log(id, _, _, _),
          .whatIf(id, _, _, _, _, _):
          return .json(CanonicalJSON.encode(answer.json))
        default:
          continue
        }
      }
    } catch {
      return Self.error(.internal, "\(error)", status: 502)
    }
  }

  /// The message `body` names, checked as the daemon would check it.
  static func message(from body: [UInt8]) throws(MessageError) -> ClientMessage {
    let json: JSONValue
    do {
      json = try JSONParser.parse(body)
    } catch {
      throw MessageError(.invalidJSON, "the body is not JSON: \(error)")
    }
    guard case .object(var object) = json, case .string(let type)? = object["type"] else {
      throw MessageError(.invalidMessage, "the body must be a JSON object with a 'type'")
    }
    guard forwarded.contains(type) else {
      throw MessageError(
        .unknownType,
        "'\(type.prefix(40))' is not forwarded; expected one of: \(forwarded.sorted().joined(separator: ", "))")
    }
    if case .bool(true)? = object["follow"] {
      throw MessageError(.invalidMessage, "'log' with 'follow' is not forwarded; the event stream carries changes")
    }
    if case .bool(true)? = object["wait"] {
      throw MessageError(.invalidMessage, "'send' with 'wait' is not forwarded; the event stream carries its effects")
    }
    object["id"] = .int(0)
    return try ClientMessage(json: .object(object))
  }

  /// An `error` message, as the daemon writes one, with `status`.
  static func error(_ code: WireErrorCode, _ message: String, status: Int) -> HTTPResponse {
    let json: JSONValue = .object([
      "type": .string("error"), "code": .string(code.rawValue), "message": .string(message),
    ])
    return .json(CanonicalJSON.encode(json), status: status)
  }
}
