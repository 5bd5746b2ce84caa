import Glibc
import Platform
import Wire

/// The clients' side of the store loop's event loop: it accepts connections
/// from the listening socket, reads each client's frames when its socket is
/// ready and hands them to the loop as ``Event``s, writes each outbox when
/// its socket has room, and keeps the deadlines (the handshake, the write
/// timeout). One thread serves every client: a client costs its buffers,
/// not a thread. Confined to the store loop's thread.
///
/// What `--max-clients` counts: connections on the Unix socket from
/// `accept` until they close; `--max-tcp-clients` counts those on the TCP
/// listener apart, so that a flood there never takes a local client's slot.
/// In each, connections still waiting for their `hello` hold at most
/// ``handshakeShare(of:)`` of the slots: past it, or when every slot is
/// taken, a new connection closes the one of its own kind that has waited
/// longest for its `hello` (as OpenSSH's `MaxStartups` drops
/// unauthenticated connections), so connections that never speak cannot
/// keep out clients that do.
final class ConnectionServer {
  /// What the loop is told of its clients.
  enum Event {
    /// A client said `hello`, for the store it names (nil: the default).
    case connected(Connection, client: String, store: StoreName?)
    /// A request from a greeted client.
    case message(Connection, ClientMessage)
    /// A frame from a greeted client that is not a valid message.
    case invalid(Connection, requestID: Int?, MessageError)
    /// A greeted client stopped sending (it closed, or closed its writing
    /// half), or its connection closed.
    case disconnected(Connection)
  }

  /// The tokens the event poll reports: the listener's, and each
  /// connection's (its id from this base).
  static let listenerToken: UInt64 = 1
  static let tcpListenerToken: UInt64 = 3
  static let connectionTokenBase: UInt64 = 1 << 40

  /// The most connections that may wait for their `hello` at once: half of
  /// `maximum`, at least one.
  static func handshakeShare(of maximum: Int) -> Int { max(1, maximum / 2) }

  /// The bytes read from one socket at a time.
  static let readSize = 64 * 1024
  /// Where every socket is read into: one thread reads them all.
  private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 16)

  private let poll: EventPoll
  private let options: DaemonOptions
  /// The listening socket and who may connect, once ``listen(on:policy:)``.
  private var listener: Listener?
  /// The TCP listener, with `--listen-tcp`.
  private var tcp: TCPListener?
  private var policy = PeerPolicy(ownerUID: getuid(), allowedGroup: nil)
  /// The open batch's hold on the outboxes (``Outbox``).
  let gate: HoldGate
  /// Every connection not yet closed, by id.
  private(set) var connections: [Int: Connection] = [:]
  /// The connections waiting for their `hello`.
  private var handshaking: [Int: Connection] = [:]
  /// The connections whose outbox waits for the socket to have room.
  private var blocked: [Int: Connection] = [:]
  /// The connections whose socket is not read while the loop catches up.
  private var paused: Set<Int> = []
  /// The connections that hold a slot (evicted ones give theirs up at
  /// once): on the Unix socket, and on the TCP listener.
  private var slotsTaken = (local: 0, remote: 0)
  private var evicted: Set<Int> = []
  private var nextID = 1
  private(set) var isAccepting = true
  /// The connections refused or closed with an error, by its code, for the
  /// metrics.
  private(set) var refusals = RefusalCounts()
  /// How many connections were accepted.
  private(set) var accepted = 0
  /// Accepting stopped for want of descriptors or memory, until then.
  private var acceptPausedUntil: ContinuousClock.Instant?
  /// What happened, for the loop to take (``takeEvents()``).
  private let events = MovingQueue<Event>()
  /// Connections whose answers fell below the limit since the loop last looked.
  private(set) var withRoom: [Int] = []

  init(poll: EventPoll, options: DaemonOptions) {
    self.poll = poll
    self.options = options
    gate = HoldGate()
  }

  deinit {
    readBuffer.deallocate()
  }

  /// Accepts connections from `listener` from now on, from the peers
  /// `policy` allows. Called once, before the loop runs.
  func listen(on listener: Listener, policy: PeerPolicy) throws(SystemFailure) {
    self.listener = listener
    self.policy = policy
    try poll.add(listener.socket.descriptor, token: Self.listenerToken, interest: .readable)
  }

  /// Accepts connections from the TCP listener too, each of which must give
  /// its token. Called once, before the loop runs.
  func listen(on tcp: TCPListener) throws(SystemFailure) {
    self.tcp = tcp
    try poll.add(tcp.socket.descriptor, token: Self.tcpListenerToken, interest: .readable)
  }

  /// How many connections are open.
  var count: Int { connections.count }

  subscript(id: Int) -> Connection? { connections[id] }

  /// Whether events wait for the loop.
  var hasEvents: Bool { !events.isEmpty }

  /// How many events wait.
  var eventCount: Int { events.count }

  /// The first event that waits, taken out of the queue (moved, not
  /// copied); nil when none waits.
  func nextEvent() -> Event? {
    events.popFirst()
  }

  /// Forgets every event that waits.
  func discardEvents() {
    events.removeAll()
  }

  /// Notes that the connection has room for answers again, for the loop.
  func noteRoom(_ id: Int) {
    withRoom.append(id)
  }

  /// The connections that have room for answers again, since the last call.
  func takeWithRoom() -> [Int] {
    defer { withRoom.removeAll(keepingCapacity: true) }
    return withRoom
  }

  /// Handles what the event poll reported for the listener or a connection.
  func handle(_ event: EventPoll.Event) {
    if event.token == Self.listenerToken || event.token == Self.tcpListenerToken {
      acceptReady(overTCP: event.token == Self.tcpListenerToken)
      return
    }
    guard event.token >= Self.connectionTokenBase,
      let connection = connections[Int(event.token - Self.connectionTokenBase)]
    else { return }
    if event.isWritable { connection.outbox.flush() }
    if event.isReadable && !connection.isClosed { read(connection) }
    // Gone both ways: nothing written can be read any more.
    if event.isHungUp { close(connection) }
  }

  // MARK: Reading

  private func read(_ connection: Connection) {
    guard !connection.isClosing, !connection.hasStoppedSending, !paused.contains(connection.id) else {
      updateInterest(connection)
      return
    }
    var count = 0
    repeat {
      count = Glibc.read(connection.socket.descriptor, readBuffer.baseAddress, readBuffer.count)
    } while count < 0 && errno == EINTR
    if count < 0 {
      if errno == EAGAIN || errno == EWOULDBLOCK { return }
      stoppedSending(connection, peerGone: true)
      return
    }
    if count == 0 {
      do throws(FrameError) {
        try connection.decoder.finish()
      } catch {
        Log.info("connection \(connection.id): \(error)")
      }
      stoppedSending(connection, peerGone: false)
      return
    }
    connection.decoder.append(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
    while !connection.isClosing {
      let parsed: Connection.Parsed
      do {
        guard
          let next = try connection.decoder.nextFrame({ payload in
            MemoryRelease.noteFrame(bytes: payload.count)
            return connection.parse(payload)
          })
        else { break }
        parsed = next
      } catch {
        closeWithError(connection, id: nil, .frame, "\(error); closing the connection")
        break
      }
      guard connection.isGreeted else {
        handshake(connection, parsed)
        continue
      }
      switch parsed {
      case .message(let message): events.append(.message(connection, message))
      case .invalid(let requestID, let error): events.append(.invalid(connection, requestID: requestID, error))
      }
    }
    updateInterest(connection)
  }

  /// The first frame: `hello` with the protocol version, or the end.
  private func handshake(_ connection: Connection, _ parsed: Connection.Parsed) {
    switch parsed {
    case .message(.hello(let version, let client, let token, let store)):
      do throws(MessageError) {
        try ClientLimits.check(clientName: client)
      } catch {
        closeWithError(connection, id: nil, error.code, error.message)
        return
      }
      if let required = connection.requiredToken, !TokenFile.matches(token ?? "", required) {
        Log.warning("refused a TCP connection: its hello gave \(token == nil ? "no" : "a wrong") token")
        closeWithError(
          connection,
          id: nil, .forbidden,
          "this TCP listener needs the token of \(DaemonName.current)'s --token-file as 'token' in 'hello'"
            + (token == nil ? "; none was given" : "; the one given is not it"))
        return
      }
      guard version == ProtocolVersion.current else {
        closeWithError(
          connection,
          id: nil, .unsupportedVersion,
          "this daemon speaks protocol \(ProtocolVersion.current); the client asked for \(version)")
        return
      }
      connection.greeted()
      handshaking[connection.id] = nil
      events.append(.connected(connection, client: client, store: store))
    case .message(let other):
      closeWithError(
        connection, id: other.id, .handshake, "the first message must be 'hello' with the protocol version")
    case .invalid(_, let failure) where failure.code == .invalidStore:
      closeWithError(connection, id: nil, .invalidStore, "'hello': \(failure.message)")
    case .invalid(_, let failure):
      closeWithError(
        connection,
        id: nil, .handshake, "the first message must be 'hello' with the protocol version; \(failure.message)")
    }
  }

  /// The client sent its last bytes: a greeted one is let go by the loop
  /// once it has answered what was read (the client may still read them),
  /// any other closes once its outbox is written.
  private func stoppedSending(_ connection: Connection, peerGone: Bool) {
    connection.hasStoppedSending = true
    if connection.isGreeted && !connection.isClosing {
      events.append(.disconnected(connection))
    } else {
      connection.outbox.finish()
    }
    if peerGone { close(connection) } else { updateInterest(connection) }
  }

  /// Stops reading the connection's socket until ``resume(_:)``: the loop
  /// has as many of its requests waiting as it takes.
  func pause(_ connection: Connection) {
    guard paused.insert(connection.id).inserted else { return }
    updateInterest(connection)
  }

  /// Reads the connection's socket again.
  func resume(_ connection: Connection) {
    guard paused.remove(connection.id) != nil, !connection.isClosed else { return }
    updateInterest(connection)
    // What arrived while paused may already be buffered in full.
    read(connection)
  }

  /// Watches the socket for what the connection needs now.
  private func updateInterest(_ connection: Connection) {
    guard !connection.isClosed else { return }
    var interest: EventPoll.Interest = []
    if !connection.isClosing && !connection.hasStoppedSending && !paused.contains(connection.id) {
      interest.insert(.readable)
    }
    if connection.outbox.isBlocked { interest.insert(.writable) }
    guard interest != connection.watching else { return }
    connection.watching = interest
    try? poll.modify(connection.socket.descriptor, token: token(of: connection), interest: interest)
  }

  private func token(of connection: Connection) -> UInt64 {
    Self.connectionTokenBase + UInt64(connection.id)
  }

  // MARK: Writing and closing

  private func outboxChanged(_ connection: Connection, _ change: Outbox.Change) {
    switch change {
    case .blocked:
      blocked[connection.id] = connection
      updateInterest(connection)
    case .unblocked:
      blocked[connection.id] = nil
      updateInterest(connection)
    case .drained:
      close(connection)
    case .failed:
      // The client is gone (EPIPE, ECONNRESET): nothing more can reach it.
      close(connection)
    }
  }

  /// Closes the socket now; the loop hears of a greeted client that had
  /// not stopped sending.
  private func close(_ connection: Connection) {
    guard !connection.isClosed else { return }
    connection.isClosed = true
    connection.markClosing()
    poll.remove(connection.socket.descriptor)
    Self.discardUnread(connection.socket.descriptor)
    connection.outbox.abandon()
    connection.socket.close()
    connections[connection.id] = nil
    handshaking[connection.id] = nil
    blocked[connection.id] = nil
    paused.remove(connection.id)
    if evicted.remove(connection.id) == nil { releaseSlot(of: connection) }
    if connection.isGreeted && !connection.hasStoppedSending {
      connection.hasStoppedSending = true
      events.append(.disconnected(connection))
    }
  }

  /// Reads and drops what the client sent and was not read (a request
  /// after its goodbye), up to a bound: a Unix socket closed with unread
  /// bytes resets the peer's, which could then lose the last frames written
  /// to it.
  private static func discardUnread(_ descriptor: Int32) {
    withUnsafeTemporaryAllocation(byteCount: 16 * 1024, alignment: 1) { buffer in
      for _ in 0..<16 where recv(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
    }
  }

  // MARK: Deadlines

  /// When the next handshake or write deadline passes, if any.
  var nextDeadline: ContinuousClock.Instant? {
    var next = acceptPausedUntil
    for connection in handshaking.values {
      let deadline = connection.acceptedAt + options.handshakeTimeout
      if next.map({ deadline < $0 }) ?? true { next = deadline }
    }
    for connection in blocked.values {
      let deadline = connection.outbox.lastTakenAt + options.writeTimeout
      if next.map({ deadline < $0 }) ?? true { next = deadline }
    }
    return next
  }

  /// Closes the connections whose handshake or write deadline has passed,
  /// and accepts again after a pause.
  func enforceDeadlines(now: ContinuousClock.Instant = .now) {
    if let until = acceptPausedUntil, now >= until, isAccepting, let listener {
      acceptPausedUntil = nil
      try? poll.add(listener.socket.descriptor, token: Self.listenerToken, interest: .readable)
      if let tcp { try? poll.add(tcp.socket.descriptor, token: Self.tcpListenerToken, interest: .readable) }
    }
    for connection in handshaking.values where now - connection.acceptedAt >= options.handshakeTimeout {
      // The deadline is the client's, not the loop's: a hello that arrived
      // while the loop was busy elsewhere is read before anything is closed.
      read(connection)
      guard handshaking[connection.id] != nil, !connection.isClosed else { continue }
      handshaking[connection.id] = nil
      Log.info(
        "connection \(connection.id): no hello within \(options.handshakeTimeout) (--handshake-timeout); closing it")
      closeWithError(connection, id: nil, .timeout, "no hello within \(options.handshakeTimeout); closing")
    }
    for connection in blocked.values where now - connection.outbox.lastTakenAt >= options.writeTimeout {
      // Likewise, what the client read while the loop was busy counts.
      let takenBefore = connection.outbox.lastTakenAt
      connection.outbox.flush()
      guard blocked[connection.id] != nil, connection.outbox.lastTakenAt == takenBefore else { continue }
      Log.info(
        "connection \(connection.id): the client has read nothing for \(options.writeTimeout) (--write-timeout); "
          + "closing it")
      close(connection)
    }
  }

  // MARK: Accepting

  private func acceptReady(overTCP: Bool) {
    guard let listener else { return }
    for _ in 0..<64 where isAccepting && acceptPausedUntil == nil {
      let socket: UnixSocket
      do {
        let accepted = overTCP ? try tcp?.acceptReady() : try listener.acceptReady()
        guard let accepted else { return }
        socket = accepted
      } catch {
        switch error.errno {
        case EINTR, ECONNABORTED, EPROTO:
          continue
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
          // Out of descriptors or memory for now: connections that end free
          // them, so wait a little and go on rather than stop serving.
          Log.warning("\(error); accepting again in 100 ms")
          acceptPausedUntil = .now + .milliseconds(100)
          poll.remove(listener.socket.descriptor)
          if let tcp { poll.remove(tcp.socket.descriptor) }
          return
        default:
          Log.error("\(error); no longer accepting connections")
          stopAccepting()
          return
        }
      }
      admit(socket, requiredToken: overTCP ? tcp?.token : nil)
    }
  }

  /// Takes a connection in: one on the Unix socket if its peer's user is
  /// allowed; one on the TCP listener to wait for its `hello` with
  /// `requiredToken`.
  private func admit(_ socket: UnixSocket, requiredToken: String?) {
    let credentials: PeerCredentials
    do {
      // A TCP peer has no credentials the kernel vouches for: its token does.
      credentials =
        requiredToken == nil ? try socket.peerCredentials() : PeerCredentials(pid: 0, uid: getuid(), gid: getgid())
    } catch {
      Log.warning("\(error); closing the connection")
      socket.close()
      return
    }
    guard policy.allows(credentials) else {
      // Refused before anything is read. The two small frames fit in the
      // socket buffer, so this write does not wait on the client; Unix
      // sockets keep written data readable after close.
      let reason = policy.refusal(for: credentials)
      Log.write(
        .warning, "refused connection from pid \(credentials.pid): \(reason)",
        fields: [("CLIENT_PID", String(credentials.pid)), ("CLIENT_UID", String(credentials.uid))])
      refuse(socket, .forbidden, reason)
      return
    }
    let remote = requiredToken != nil
    let maximum = remote ? options.maximumTCPClients : options.maximumClients
    let flag = remote ? "--max-tcp-clients" : "--max-clients"
    let waiting = handshaking.values.filter { ($0.requiredToken != nil) == remote }
    if (remote ? slotsTaken.remote : slotsTaken.local) >= maximum
      || waiting.count >= Self.handshakeShare(of: maximum)
    {
      // Ids grow with each accept: the smallest has waited longest.
      guard let oldest = waiting.min(by: { $0.id < $1.id }) else {
        let clients = remote ? "clients over TCP" : "clients"
        refuse(
          socket, .tooManyClients,
          "\(DaemonName.current) already serves \(maximum) \(clients) (\(flag)); try again later")
        return
      }
      handshaking[oldest.id] = nil
      evicted.insert(oldest.id)
      releaseSlot(of: oldest)
      closeWithError(
        oldest,
        id: nil, .timeout,
        "no hello yet, and a newer connection needed the room: at most \(Self.handshakeShare(of: maximum)) "
          + "connections may wait for their hello (half of \(flag)), so the one waiting longest is closed")
    }
    socket.setNonBlocking()
    let id = nextID
    nextID += 1
    let connection = Connection(
      id: id, socket: socket, outboxLimit: options.outboxLimit, maximumFrame: options.maximumFrame, gate: gate)
    connection.requiredToken = requiredToken
    connection.outbox.onChange = { [unowned self, unowned connection] change in
      outboxChanged(connection, change)
    }
    do {
      try poll.add(socket.descriptor, token: token(of: connection), interest: .readable)
    } catch {
      Log.warning("\(error); closing the connection")
      socket.close()
      return
    }
    connection.watching = .readable
    connections[id] = connection
    handshaking[id] = connection
    if remote { slotsTaken.remote += 1 } else { slotsTaken.local += 1 }
    accepted += 1
  }

  /// Gives up the slot `connection` held, in its kind's count.
  private func releaseSlot(of connection: Connection) {
    if connection.requiredToken != nil { slotsTaken.remote -= 1 } else { slotsTaken.local -= 1 }
  }

  /// Closes `connection` with an error (``Connection/closeWithError(id:_:_:)``),
  /// counted for the metrics.
  func closeWithError(_ connection: Connection, id: Int?, _ code: WireErrorCode, _ message: String) {
    refusals.count(code)
    connection.closeWithError(id: id, code, message)
  }

  private func refuse(_ socket: UnixSocket, _ code: WireErrorCode, _ reason: String) {
    refusals.count(code)
    try? socket.write(
      MessageCodec.frame(ServerMessage.error(id: nil, code: code, message: reason))
        + MessageCodec.frame(ServerMessage.goodbye(reason: reason)))
    socket.close()
  }

  /// Takes no more connections: the listener is closed (its file removed
  /// unless systemd owns it).
  func stopAccepting() {
    guard isAccepting else { return }
    isAccepting = false
    if let tcp {
      poll.remove(tcp.socket.descriptor)
      tcp.close()
    }
    guard let listener else { return }
    poll.remove(listener.socket.descriptor)
    listener.close()
  }

  /// Says goodbye to every connection: each closes once it has read it.
  func sayGoodbyeToAll(_ reason: String) {
    for connection in connections.values where !connection.isClosing {
      connection.sayGoodbye(reason)
    }
  }

  /// Closes every connection now.
  func closeAll() {
    for connection in Array(connections.values) { close(connection) }
  }
}
