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
      client = try Self.connect(to: socketPath, name: "tcaweb", app: app, daemonUser: daemonUser)
    } catch {
      return Self.error(.internal, "\(error)", status: 503)
    }
    defer { client.close() }
    do {
      // A send a standby refuses goes to the leader, given the store's
      // sockets; nothing else changes the state, so any daemon answers it.
      let answer = try client.followingTheLeader { () throws(ClientError) -> ServerMessage in
        let id = try client.post { message.withID($0) }
        while true {
          let answer = try client.nextMessage()
          switch answer {
          case .notLeader(id, let text, let leader):
            throw .notLeader(message: text, leader: leader)
          case .error(let errorID, _, _) where errorID == id || errorID == nil:
            return answer
          case _ where answer.answerID == id:
            return answer
          default:
            continue
          }
        }
      }
      if case .error(_, let code, let text) = answer { return Self.error(code, text, status: 400) }
      return .json(CanonicalJSON.encode(answer.json))
    } catch .notLeader(let text, let leader) {
      // The refusal as the daemon gave it, naming the leader.
      var refusal: JSONObject = [
        "type": .string("error"), "code": .string(WireErrorCode.notLeader.rawValue), "message": .string(text),
      ]
      if let leader { refusal["leader"] = leader.json }
      return .json(CanonicalJSON.encode(.object(refusal)), status: 400)
    } catch .allSocketsFailed(let summary, let failures) where failures.allSatisfy({ $0.error.isRefusal }) {
      return Self.error(.notLeader, ClientError.allSocketsFailed(summary: summary, failures).description, status: 400)
    } catch {
      return Self.error(.internal, "\(error)", status: 502)
    }
  }

  /// A connection to the daemon at `socketPath`, or to the first that
  /// answers of a replicated store's sockets, `A,B,…` (as tcactl takes
  /// them), whose sends then follow the leader.
  static func connect(
    to socketPath: String, name: String, app: String, daemonUser: DaemonUser
  ) throws(ClientError) -> WireClient {
    let paths = socketPath.split(separator: ",").map(String.init)
    guard paths.count > 1 else {
      return try WireClient(path: socketPath, clientName: name, daemon: app, daemonUser: daemonUser)
    }
    return try WireClient(paths: paths, clientName: name, daemon: app, daemonUser: daemonUser)
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
