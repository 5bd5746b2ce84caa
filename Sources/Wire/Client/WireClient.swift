import EffectRequests
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
  public private(set) var server: String
  /// The state version when the connection was made.
  public private(set) var versionAtConnect: UInt64
  /// The daemon's epoch: versions from another epoch cannot be resumed.
  public private(set) var epoch: String
  /// The socket the client is connected to: for a client made from
  /// several, the one it uses now.
  public private(set) var path: String
  /// The sockets the client may connect to: the list it was made from, or
  /// its one path.
  public let paths: [String]

  private var socket: UnixSocket
  private var decoder: FrameDecoder
  private var nextID = 1
  private var isClosed = false
  private let dialer: Dialer
  /// How long a send looks for the leader and ``reconnect()`` for a
  /// daemon; nil for a client made from one path, which stays with it.
  private let leaderTimeout: Duration?

  /// Connects to the daemon at `path` and completes the handshake.
  ///
  /// - Parameters:
  ///   - daemon: the daemon's name, as errors say it: `storedaemon`, or a
  ///     hosted app's (`kettled`).
  ///   - daemonUser: the users the process listening at `path` may run as;
  ///     checked (`SO_PEERCRED`) before anything is sent.
  ///   - store: the daemon's store to connect to; its default store when nil.
  /// - Throws: ``ClientError/impostor(daemon:path:peer:expected:)`` when another
  ///   user listens there, and the other cases for a daemon that cannot be
  ///   reached, refuses, or does not answer in time.
  public convenience init(
    path: String, clientName: String, maximumFrame: UInt32 = MessageCodec.maximumPayload,
    handshakeTimeout: Duration = .seconds(10), daemon: String = DaemonUser.serviceUser,
    daemonUser: DaemonUser = .standard, token: String? = nil, store: StoreName? = nil
  ) throws(ClientError) {
    let dialer = Dialer(
      clientName: clientName, maximumFrame: maximumFrame, handshakeTimeout: handshakeTimeout, daemon: daemon,
      daemonUser: daemonUser, token: token, store: store)
    try self.init(dialer: dialer, paths: [path], connection: dialer.connect(to: path), leaderTimeout: nil)
  }

  /// Connects to the first of `paths` whose daemon answers, the daemons of
  /// one replicated store (docs/PROTOCOL.md, "Replicated stores"): reads
  /// go to it, and sends follow the leader (``followingTheLeader(_:)``).
  /// A socket where nothing answers (no daemon, a connection that fails or
  /// times out in the handshake) is passed over; a refusal or an impostor
  /// ends the search.
  ///
  /// - Parameters:
  ///   - paths: at least one socket, in the order to try them.
  ///   - leaderTimeout: how long a send may look for the leader, through
  ///     an election, before it gives up; also how long ``reconnect()``
  ///     tries the list.
  /// - Throws: as ``init(path:clientName:maximumFrame:handshakeTimeout:daemon:daemonUser:)``
  ///   for the socket that ended the search; with several sockets and none
  ///   answering, or none given, ``ClientError/allSocketsFailed(summary:_:)``.
  public convenience init(
    paths: [String], clientName: String, maximumFrame: UInt32 = MessageCodec.maximumPayload,
    handshakeTimeout: Duration = .seconds(10), daemon: String = DaemonUser.serviceUser,
    daemonUser: DaemonUser = .standard, leaderTimeout: Duration = .seconds(30), token: String? = nil,
    store: StoreName? = nil
  ) throws(ClientError) {
    guard !paths.isEmpty else {
      throw .allSocketsFailed(summary: "no socket to connect to: expected at least one socket path", [])
    }
    let dialer = Dialer(
      clientName: clientName, maximumFrame: maximumFrame, handshakeTimeout: handshakeTimeout, daemon: daemon,
      daemonUser: daemonUser, token: token, store: store)
    try self.init(
      dialer: dialer, paths: paths, connection: dialer.connectToFirst(of: paths), leaderTimeout: leaderTimeout)
  }

  private init(dialer: Dialer, paths: [String], connection: Connection, leaderTimeout: Duration?) {
    self.dialer = dialer
    self.paths = paths
    self.leaderTimeout = leaderTimeout
    path = connection.path
    socket = connection.socket
    decoder = connection.decoder
    server = connection.server
    versionAtConnect = connection.version
    epoch = connection.epoch
  }

  deinit { close() }

  /// Sends an action named by its command-line path; returns the version
  /// it produced. A client made from several sockets sends it to the
  /// leader (``followingTheLeader(_:)``).
  ///
  /// - Throws: ``ClientError/unanswered(_:)``'s error when the connection
  ///   ends before the answer: the action may or may not have been applied.
  public func send(path: String, arguments: [String] = []) throws(ClientError) -> UInt64 {
    try followingTheLeader { () throws(ClientError) in
      try expectAck(request(sending: true) { .send(id: $0, action: .path(path, arguments: arguments)) })
    }
  }

  /// Sends an action named by its command-line path and waits until every
  /// effect that followed from it has finished, up to `timeout`. Returns the
  /// version the action produced, the version when it settled, and each change
  /// as `{"version", "action", "patch"}`.
  public func sendAndWait(
    path: String, arguments: [String] = [], timeout: Duration
  ) throws(ClientError) -> (version: UInt64, settledVersion: UInt64, changes: JSONValue) {
    let (id, version) = try followingTheLeader { () throws(ClientError) in
      let id = nextID
      return (
        id,
        try expectAck(request(sending: true) { .send(id: $0, action: .path(path, arguments: arguments), wait: true) })
      )
    }
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

  /// Sends an action as its JSON; returns the version it produced, as
  /// ``send(path:arguments:)`` does.
  public func send(action: JSONValue) throws(ClientError) -> UInt64 {
    try followingTheLeader { () throws(ClientError) in
      try expectAck(request(sending: true) { .send(id: $0, action: .json(action)) })
    }
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

  /// One page of the daemon's stores (see ``ClientMessage/stores(id:after:limit:)``).
  public func stores(after: StoreName? = nil, limit: Int? = nil) throws(ClientError)
    -> (stores: [StoreListing], more: Bool)
  {
    switch try request({ .stores(id: $0, after: after, limit: limit) }) {
    case .stores(_, let stores, let more): return (stores, more)
    case let other: throw .protocolViolation("expected 'stores', got \(other.json)")
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

  // MARK: Several sockets

  /// Runs `send`, which sends one action on this connection and reads its
  /// answer, at the leader of a replicated store. A client made from one
  /// path just runs it. One made from several sockets runs it again when a
  /// standby refuses it with `not_leader` (which applies nothing): on the
  /// socket the refusal names as the leader's when it is in ``paths``,
  /// else on the next socket of the list. While the store has no leader
  /// (an election), or the leader named does not answer yet, it goes round
  /// the list, pausing a little longer each round (up to a second), until
  /// the leader timeout. Any other outcome, an error included, is `send`'s:
  /// a connection that ends after the action was sent is never retried,
  /// since the action may have been applied.
  ///
  /// After a refusal, `send` starts over on a new connection (to another
  /// socket, or the same one again), so it sets up anything it needs there
  /// itself (a subscription, say).
  ///
  /// - Throws: `send`'s error; ``ClientError/allSocketsFailed(summary:_:)``
  ///   listing what each socket said when no daemon took the action by the
  ///   leader timeout, or when every socket names a leader outside the list
  ///   (with one socket, its refusal as it came).
  public func followingTheLeader<T>(_ send: () throws(ClientError) -> T) throws(ClientError) -> T {
    guard let leaderTimeout else { return try send() }
    let deadline = ContinuousClock.now + leaderTimeout
    var said: [String: ClientError] = [:]
    var leaders: [String: LeaderHint] = [:]
    var triedThisRound: Set<String> = []
    var pause = Duration.milliseconds(50)
    var target = path
    // After a refusal `send` starts over on a new connection, even to the
    // same socket: nothing it left on the old one (a subscription) remains.
    var refused = false
    while true {
      if triedThisRound.contains(target) {
        guard ContinuousClock.now + pause < deadline else {
          throw .allSocketsFailed(
            summary: "the action was not applied: no daemon of the store took it within \(leaderTimeout)",
            failures(said))
        }
        ThreadSleep.sleep(for: pause)
        pause = min(pause * 2, .seconds(1))
        triedThisRound = []
      }
      triedThisRound.insert(target)
      if refused || target != path {
        do {
          adopt(try dialer.connect(to: target))
        } catch let error where error.isSilence {
          said[target] = error
          leaders[target] = nil
          target = next(after: target)
          continue
        }
      }
      do {
        return try send()
      } catch .notLeader(let message, let leader) {
        refused = true
        said[path] = .notLeader(message: message, leader: leader)
        let hint = LeaderHint(leader, among: paths)
        leaders[path] = hint
        // Every socket names a leader that is not in the list, and none is
        // waiting for one: going round again would not find it.
        let hints = paths.map { leaders[$0] }
        let elsewhere = hints.contains { if case .elsewhere? = $0 { true } else { false } }
        let waiting = hints.contains { if case .elsewhere? = $0 { false } else { $0 != nil } }
        if elsewhere && !waiting && paths.allSatisfy({ said[$0] != nil }) {
          if paths.count == 1 { throw .notLeader(message: message, leader: leader) }
          throw .allSocketsFailed(
            summary: "the action was not applied: the store's leader is at none of the sockets given",
            failures(said))
        }
        if case .listed(let leader) = hint, leader != path { target = leader } else { target = next(after: path) }
      }
    }
  }

  /// Connects again, to the first socket of ``paths`` that answers: for a
  /// client that follows a stream (a subscription, the log) after its
  /// connection ended, which then subscribes again where it left off
  /// (`since`, `epoch`). A client made from several sockets goes round the
  /// list, pausing a little longer each round, until its leader timeout; one
  /// made from one path tries it once.
  ///
  /// - Throws: as ``init(paths:clientName:maximumFrame:handshakeTimeout:daemon:daemonUser:leaderTimeout:)``.
  public func reconnect() throws(ClientError) {
    let deadline = ContinuousClock.now + (leaderTimeout ?? .zero)
    var pause = Duration.milliseconds(50)
    while true {
      do {
        adopt(try dialer.connectToFirst(of: paths))
        return
      } catch let error where error.isSilence && ContinuousClock.now + pause < deadline {
        ThreadSleep.sleep(for: pause)
        pause = min(pause * 2, .seconds(1))
      }
    }
  }

  /// What a standby's `not_leader` says of the leader (its `leader`
  /// field): a socket of the list, one elsewhere, or none known.
  enum LeaderHint: Equatable {
    case listed(String)
    case elsewhere(String)
    case unknown

    init(_ leader: StoreLeader?, among paths: [String]) {
      guard let leader, !leader.socket.isEmpty else {
        self = .unknown
        return
      }
      if let path = paths.first(where: { $0 == leader.socket }) {
        self = .listed(path)
        return
      }
      // The same socket written another way (relative, through a link).
      if let real = Self.realPath(leader.socket), let path = paths.first(where: { Self.realPath($0) == real }) {
        self = .listed(path)
        return
      }
      self = .elsewhere(leader.socket)
    }

    private static func realPath(_ path: String) -> String? {
      guard let resolved = Glibc.realpath(path, nil) else { return nil }
      defer { free(resolved) }
      return String(cString: resolved)
    }
  }

  /// The socket after `path` in the list, round to the first.
  private func next(after path: String) -> String {
    guard let index = paths.firstIndex(of: path) else { return paths[0] }
    return paths[(index + 1) % paths.count]
  }

  /// What each socket said, in the list's order.
  private func failures(_ said: [String: ClientError]) -> [SocketFailure] {
    paths.compactMap { path in said[path].map { SocketFailure(path: path, error: $0) } }
  }

  /// Uses `connection` from now on, closing the one before.
  private func adopt(_ connection: Connection) {
    if !isClosed { socket.close() }
    isClosed = false
    path = connection.path
    socket = connection.socket
    decoder = connection.decoder
    server = connection.server
    versionAtConnect = connection.version
    epoch = connection.epoch
  }

  // MARK: -

  /// Writes the request `make` builds and reads its answer, skipping
  /// subscription traffic. With `sending` (an action), a connection that
  /// ends before the answer is ``ClientError/unanswered(_:)``.
  private func request(sending: Bool = false, _ make: (Int) -> ClientMessage) throws(ClientError) -> ServerMessage {
    let id = nextID
    nextID += 1
    try write(make(id))
    while true {
      let message: ServerMessage
      do {
        message = try readMessage()
      } catch {
        throw sending ? .unanswered(error) : error
      }
      switch message {
      case .error(let errorID, let code, let text) where errorID == id || errorID == nil:
        throw .rejected(code: code, message: text)
      case .notLeader(id, let text, let leader):
        throw .notLeader(message: text, leader: leader)
      case _ where message.answerID == id:
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
  fileprivate static func readMessage(
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

/// How a client connects: who it is, and whom it accepts.
private struct Dialer {
  let clientName: String
  let maximumFrame: UInt32
  let handshakeTimeout: Duration
  let daemon: String
  let daemonUser: DaemonUser
  /// The token a daemon's TCP listener asks for (its `--token-file`).
  let token: String?
  /// The store the `hello` asks for; the default store when nil.
  let store: StoreName?

  /// Connects to the first of `paths` whose daemon answers; a refusal or
  /// an impostor ends the search.
  func connectToFirst(of paths: [String]) throws(ClientError) -> Connection {
    var failures: [SocketFailure] = []
    for path in paths {
      do {
        return try connect(to: path)
      } catch let error where error.isSilence {
        failures.append(SocketFailure(path: path, error: error))
      }
    }
    if failures.count == 1 { throw failures[0].error }
    throw .allSocketsFailed(summary: "no \(daemon) answers at any of the sockets given", failures)
  }

  /// Connects to the daemon at `path` and completes the handshake: a Unix
  /// socket's path, or `tcp://HOST:PORT` for a daemon's TCP listener
  /// (``DaemonAddress/tcp(_:)``), whose `hello` carries ``token``.
  func connect(to path: String) throws(ClientError) -> Connection {
    let socket: UnixSocket
    if let (host, port) = DaemonAddress.tcp(path) {
      do {
        socket = UnixSocket(descriptor: try SocketCalls.connect(host: host, port: port, timeout: handshakeTimeout))
      } catch {
        throw .unreachable(daemon: daemon, path: path, error)
      }
    } else {
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
    }
    var decoder = FrameDecoder(maximum: maximumFrame)
    // A daemon that accepts but never answers (wedged, or out of descriptors)
    // must not hang the client.
    let deadline = ContinuousClock.now + handshakeTimeout
    // A daemon that refuses us writes its reason and closes, possibly before
    // our hello arrives: a failed write is reported only if nothing was said.
    var writeError: SocketError?
    do {
      try socket.write(
        MessageCodec.frame(
          ClientMessage.hello(protocol: ProtocolVersion.current, client: clientName, token: token, store: store)))
    } catch {
      writeError = error
    }
    do {
      switch try WireClient.readMessage(from: socket, decoder: &decoder, until: deadline) {
      case .welcome(_, let server, let version, let epoch, let answered):
        // A daemon of a release without stores ignores `store` in the hello
        // and serves its one store: never take that for the one asked for.
        guard answered == store else {
          throw ClientError.rejected(
            code: .invalidStore,
            message: "\(daemon) at \(path) answered for "
              + (answered.map { "the store '\($0)'" } ?? "its default store") + ", not for "
              + (store.map { "the store '\($0)'" } ?? "its default store")
              + (store != nil && answered == nil ? ": it serves no named store (a release before them)" : ""))
        }
        return Connection(
          path: path, socket: socket, decoder: decoder, server: server, version: version, epoch: epoch)
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
}

/// A connection that has completed its handshake.
private struct Connection {
  let path: String
  let socket: UnixSocket
  let decoder: FrameDecoder
  let server: String
  let version: UInt64
  let epoch: String
}
