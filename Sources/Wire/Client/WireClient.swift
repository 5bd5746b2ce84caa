import ComposableCore
import Glibc
import JSON
import Platform

/// A blocking client of storedaemon: connects, shakes hands, sends requests and
/// reads answers. Used by `tcactl` and the integration tests; a model for
/// clients in other languages (docs/PROTOCOL.md).
///
/// A client is used from one thread at a time; it is not `Sendable`.
public final class WireClient {
  /// The daemon's name and version, from its welcome.
  public let server: String
  /// The state version when the connection was made.
  public let versionAtConnect: UInt64
  /// The daemon's epoch: versions from another epoch cannot be resumed.
  public let epoch: String

  private let socket: UnixSocket
  private var decoder: FrameDecoder
  private var nextID = 1
  private var isClosed = false

  /// Connects to the daemon at `path` and completes the handshake.
  ///
  /// - Parameters:
  ///   - daemon: the daemon's name, as errors say it: `storedaemon`, or a
  ///     hosted app's (`kettled`).
  ///   - daemonUser: the users the process listening at `path` may run as;
  ///     checked (`SO_PEERCRED`) before anything is sent.
  /// - Throws: ``ClientError/impostor(daemon:path:peer:expected:)`` when another
  ///   user listens there, and the other cases for a daemon that cannot be
  ///   reached, refuses, or does not answer in time.
  public init(
    path: String, clientName: String, maximumFrame: UInt32 = MessageCodec.maximumPayload,
    handshakeTimeout: Duration = .seconds(10), daemon: String = DaemonUser.serviceUser,
    daemonUser: DaemonUser = .standard
  ) throws(ClientError) {
    do {
      socket = try UnixSocket.connect(to: path)
    } catch {
      throw .unreachable(daemon: daemon, path: path, error)
    }
    let peer: PeerCredentials
    do {
      peer = try socket.peerCredentials()
    } catch {
      socket.close()
      throw .io(error)
    }
    guard daemonUser.uids.contains(peer.uid) else {
      socket.close()
      throw .impostor(daemon: daemon, path: path, peer: peer, expected: daemonUser)
    }
    var decoder = FrameDecoder(maximum: maximumFrame)
    // A daemon that accepts but never answers (wedged, or out of descriptors)
    // must not hang the client.
    let deadline = ContinuousClock.now + handshakeTimeout
    // A daemon that refuses us writes its reason and closes, possibly before
    // our hello arrives: a failed write is reported only if nothing was said.
    var writeError: SocketError?
    do {
      try socket.write(MessageCodec.frame(ClientMessage.hello(protocol: ProtocolVersion.current, client: clientName)))
    } catch {
      writeError = error
    }
    do {
      switch try Self.readMessage(from: socket, decoder: &decoder, until: deadline) {
      case .welcome(_, let server, let version, let epoch):
        self.server = server
        self.versionAtConnect = version
        self.epoch = epoch
        self.decoder = decoder
      case .error(_, let code, let message):
        throw ClientError.rejected(code: code, message: message)
      case let other:
        throw ClientError.protocolViolation("expected 'welcome', got \(other.json)")
      }
    } catch let error as ClientError {
      socket.close()
      if case .rejected = error { throw error }
      if case .io(let readError) = error, readError.errno == EAGAIN || readError.errno == EWOULDBLOCK {
        throw .timedOut("\(daemon) at \(path) accepted the connection but did not answer within \(handshakeTimeout)")
      }
      throw writeError.map(ClientError.io) ?? error
    } catch {
      socket.close()
      throw .protocolViolation("\(error)")
    }
  }

  deinit { close() }

  /// Sends an action named by its command-line path; returns the version it produced.
  public func send(path: String, arguments: [String] = []) throws(ClientError) -> UInt64 {
    try expectAck(request { .send(id: $0, action: .path(path, arguments: arguments)) })
  }

  /// Sends an action named by its command-line path and waits until every
  /// effect that followed from it has finished, up to `timeout`. Returns the
  /// version the action produced, the version when it settled, and each change
  /// as `{"version", "action", "patch"}`.
  public func sendAndWait(
    path: String, arguments: [String] = [], timeout: Duration
  ) throws(ClientError) -> (version: UInt64, settledVersion: UInt64, changes: JSONValue) {
    let id = nextID
    let version = try expectAck(request { .send(id: $0, action: .path(path, arguments: arguments), wait: true) })
    let deadline = ContinuousClock.now + timeout
    while true {
      let message: ServerMessage
      do {
        message = try Self.readMessage(from: socket, decoder: &decoder, until: deadline)
      } catch .io(let error) where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
        throw .timedOut(
          "the action was accepted as version \(version), but its effects were still running after \(timeout)")
      }
      switch message {
      case .settled(id, let settledVersion, let changes):
        return (version, settledVersion, changes)
      case .goodbye(let reason):
        throw .closed(reason: reason)
      default:
        continue
      }
    }
  }

  /// Sends an action as its JSON; returns the version it produced.
  public func send(action: JSONValue) throws(ClientError) -> UInt64 {
    try expectAck(request { .send(id: $0, action: .json(action)) })
  }

  /// The state at the JSON Pointer `path` ("" for all of it) and its version;
  /// with `at`, as of that earlier version.
  public func get(path: String = "", at version: UInt64? = nil) throws(ClientError) -> (
    version: UInt64, value: JSONValue
  ) {
    switch try request({ .get(id: $0, path: path, at: version) }) {
    case .state(_, let version, _, let value): return (version, value)
    case let other: throw .protocolViolation("expected 'state', got \(other.json)")
    }
  }

  /// The action paths with their arguments and JSON forms, as the daemon
  /// lists them: those a client may send, or with `all` every one, internal
  /// ones marked.
  public func actions(all: Bool = false) throws(ClientError) -> JSONValue {
    switch try request({ .actions(id: $0, all: all) }) {
    case .actions(_, let actions): return actions
    case let other: throw .protocolViolation("expected 'actions', got \(other.json)")
    }
  }

  /// The daemon's status report.
  public func status() throws(ClientError) -> JSONValue {
    switch try request({ .status(id: $0) }) {
    case .status(_, let report): return report
    case let other: throw .protocolViolation("expected 'status', got \(other.json)")
    }
  }

  /// One page of the action log (see ``ClientMessage/log(id:since:last:follow:)``).
  /// With `follow`, once a page comes without `more`, read the new records
  /// with ``nextMessage()``.
  public func log(since: UInt64?, last: Int?, follow: Bool = false) throws(ClientError)
    -> (records: [LogEntry], through: UInt64, more: Bool)
  {
    switch try request({ .log(id: $0, since: since, last: last, follow: follow) }) {
    case .log(_, let records, let through, let more): return (records, through, more)
    case let other: throw .protocolViolation("expected 'log', got \(other.json)")
    }
  }

  /// The state at version `at` (the current one when `nil`) as recorded, and
  /// the patch to it with `edit` (see ``ClientMessage/whatIf(id:at:edit:)``).
  public func whatIf(at version: UInt64?, edit: ClientMessage.HistoryEdit) throws(ClientError)
    -> (version: UInt64, recorded: JSONValue, patch: JSONValue, notes: [String])
  {
    switch try request({ .whatIf(id: $0, at: version, edit: edit) }) {
    case .whatIf(_, let version, _, let recorded, let patch, let notes): return (version, recorded, patch, notes)
    case let other: throw .protocolViolation("expected 'whatIf', got \(other.json)")
    }
  }

  /// Subscribes to the state at `path`; read the snapshot and the changes with
  /// ``nextMessage()``.
  public func subscribe(path: String = "", since: UInt64? = nil, epoch: String? = nil) throws(ClientError) {
    let id = nextID
    nextID += 1
    try write(.subscribe(id: id, path: path, since: since, epoch: epoch))
  }

  /// The next message from the daemon, waiting for it.
  public func nextMessage() throws(ClientError) -> ServerMessage {
    try readMessage()
  }

  /// The next message from the daemon, waiting for it until `deadline`;
  /// `nil` once the deadline has passed with none.
  public func nextMessage(until deadline: ContinuousClock.Instant) throws(ClientError) -> ServerMessage? {
    do {
      return try Self.readMessage(from: socket, decoder: &decoder, until: deadline)
    } catch .io(let error) where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
      return nil
    }
  }

  /// Writes the request `make` builds with a fresh id, without reading its
  /// answer, and returns that id. For a client that also reads a stream on
  /// this connection (a subscription) and must see every message: it reads
  /// the answer, `ack`, `settled` or `error` with this id, among them with
  /// ``nextMessage()``, where the requests above would skip the stream.
  public func post(_ make: (Int) -> ClientMessage) throws(ClientError) -> Int {
    let id = nextID
    nextID += 1
    try write(make(id))
    return id
  }

  /// Closes the connection.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    socket.close()
  }

  // MARK: -

  private func request(_ make: (Int) -> ClientMessage) throws(ClientError) -> ServerMessage {
    let id = nextID
    nextID += 1
    try write(make(id))
    while true {
      let message = try readMessage()
      switch message {
      case .error(let errorID, let code, let text) where errorID == id || errorID == nil:
        throw .rejected(code: code, message: text)
      case .ack(id, _), .state(id, _, _, _), .actions(id, _), .status(id, _), .log(id, _, _, _),
        .whatIf(id, _, _, _, _, _):
        return message
      case .goodbye(let reason):
        throw .closed(reason: reason)
      default:
        continue  // Subscription traffic on a shared connection is not an answer.
      }
    }
  }

  private func expectAck(_ message: ServerMessage) throws(ClientError) -> UInt64 {
    guard case .ack(_, let version) = message else { throw .protocolViolation("expected 'ack', got \(message.json)") }
    return version
  }

  private func write(_ message: ClientMessage) throws(ClientError) {
    let frame: [UInt8]
    do {
      frame = try FrameEncoder.frame(MessageCodec.encode(message.json), maximum: MessageCodec.maximumPayload)
    } catch {
      throw .rejected(code: .frame, message: "the request is too large to send: \(error)")
    }
    do {
      try socket.write(frame)
    } catch {
      throw .io(error)
    }
  }

  private func readMessage() throws(ClientError) -> ServerMessage {
    try Self.readMessage(from: socket, decoder: &decoder)
  }

  /// The next message, waiting for it until `deadline` (nil: for ever); past
  /// it, fails with an `EAGAIN` read error.
  private static func readMessage(
    from socket: UnixSocket, decoder: inout FrameDecoder, until deadline: ContinuousClock.Instant? = nil
  ) throws(ClientError) -> ServerMessage {
    while true {
      let payload: [UInt8]?
      do {
        payload = try decoder.nextFrame()
      } catch {
        throw .protocolViolation("\(error)")
      }
      if let payload {
        do {
          return try ServerMessage(json: MessageCodec.parse(payload))
        } catch {
          throw .protocolViolation(error.message)
        }
      }
      let bytes: [UInt8]
      do {
        bytes = try socket.read(timeout: deadline.map { max($0 - ContinuousClock.now, .zero) })
      } catch {
        throw .io(error)
      }
      if bytes.isEmpty { throw .closed(reason: "end of stream") }
      decoder.append(bytes)
    }
  }
}
