import Glibc
import Platform
import TestSupport
import Testing
import Wire

@testable import StoreDaemon

/// The handshake and write deadlines are the client's: a client that spoke
/// or read while the loop was busy elsewhere (a long turn on a loaded
/// machine) is not closed for the loop's delay. Driven in memory: a real
/// listener and sockets, the server's events handled by the test, and the
/// deadlines enforced at an instant the test chooses.
@Suite(.serialized)
struct ConnectionDeadlineTests {
  /// The server and its listener in a directory of the test's own.
  private struct Served {
    let directory: TemporaryDirectory
    let poll: EventPoll
    let server: ConnectionServer
    let path: String

    init(handshakeTimeout: Duration = .seconds(5), writeTimeout: Duration = .seconds(10)) throws {
      directory = try TemporaryDirectory(prefix: "deadlines")
      path = directory.appending("d.sock")
      var options = DaemonOptions(socketPath: path, stateDirectory: directory.appending("state"))
      options.handshakeTimeout = handshakeTimeout
      options.writeTimeout = writeTimeout
      options.outboxLimit = 1 << 20
      poll = try EventPoll()
      server = ConnectionServer(poll: poll, options: options)
      let listener = try Listener.adopt(UnixSocket.listen(at: path, mode: 0o600), path: path)
      try server.listen(on: listener, policy: PeerPolicy(ownerUID: getuid(), allowedGroup: nil))
    }

    /// Connects a client and has the server accept it, without reading it.
    func connect() throws -> UnixSocket {
      let client = try UnixSocket.connect(to: path)
      let before = server.count
      try waitUntil("the server accepts the client") {
        for event in poll.wait(milliseconds: 100) where event.token == ConnectionServer.listenerToken {
          server.handle(event)
        }
        return server.count > before
      }
      return client
    }

    /// Hands the server what the poll reports ready, until `done`.
    func serve(until what: String, _ done: () -> Bool) throws {
      try waitUntil(what) {
        for event in poll.wait(milliseconds: 100) { server.handle(event) }
        return done()
      }
    }

    /// The events the server has for the loop.
    func takeEvents() -> [ConnectionServer.Event] {
      var taken: [ConnectionServer.Event] = []
      while let event = server.nextEvent() { taken.append(event) }
      return taken
    }
  }

  @Test func aHelloThatArrivedWhileTheLoopWasBusyIsReadNotTimedOut() throws {
    let served = try Served()
    let client = try served.connect()
    defer { client.close() }
    try client.write(FrameEncoder.frame(Array(#"{"type":"hello","protocol":1,"client":"late-read"}"#.utf8)))
    // The loop never got to the client's readable event before the deadline.
    served.server.enforceDeadlines(now: .now + .seconds(60))
    let events = served.takeEvents()
    guard case .connected(let connection, let name, _)? = events.first else {
      Issue.record("the hello must be read and the client connected: \(events)")
      return
    }
    #expect(name == "late-read")
    #expect(!connection.isClosed)
    #expect(served.server.count == 1)
  }

  @Test func aClientThatNeverSpokeIsStillClosedAtItsDeadline() throws {
    let served = try Served()
    let client = try served.connect()
    defer { client.close() }
    served.server.enforceDeadlines(now: .now + .seconds(60))
    #expect(served.server.count == 0)
    var decoder = FrameDecoder()
    let frames = try Self.readUntilClosed(client, &decoder)
    #expect(frames.contains { $0.contains("no hello within") }, "\(frames)")
  }

  @Test func aClientThatReadWhileTheLoopWasBusyIsNotClosedForTheWriteTimeout() throws {
    let served = try Served(writeTimeout: .seconds(1))
    let client = try served.connect()
    defer { client.close() }
    try client.write(FrameEncoder.frame(Array(#"{"type":"hello","protocol":1,"client":"slow"}"#.utf8)))
    var events: [ConnectionServer.Event] = []
    try served.serve(until: "the hello is read") {
      events += served.takeEvents()
      return !events.isEmpty
    }
    guard case .connected(let connection, _, _)? = events.first else {
      Issue.record("the client must be connected")
      return
    }
    // Answers until the socket takes no more: the outbox is blocked.
    let answer = MessageCodec.frame(
      ServerMessage.error(id: 1, code: .invalidMessage, message: String(repeating: "x", count: 60_000)))
    while !connection.outbox.isBlocked { connection.outbox.offerAnswer(answer) }
    // The client reads what it was sent, but the loop does not hear of it
    // before the deadline.
    var decoder = FrameDecoder()
    _ = try Self.read(client, &decoder, frames: 1)
    served.server.enforceDeadlines(now: .now + .seconds(60))
    #expect(!connection.isClosed, "a client that read is not closed for not reading")

    // One that stops reading is closed once its deadline passes again.
    while !connection.outbox.isBlocked { connection.outbox.offerAnswer(answer) }
    served.server.enforceDeadlines(now: .now + .seconds(120))
    #expect(connection.isClosed)
  }

  private static func read(_ socket: UnixSocket, _ decoder: inout FrameDecoder, frames: Int) throws -> [String] {
    var taken: [String] = []
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while taken.count < frames {
      let count = Glibc.read(socket.descriptor, &buffer, buffer.count)
      guard count > 0 else { break }
      buffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
      while let frame = try decoder.nextFrame({ String(decoding: $0, as: UTF8.self) }) { taken.append(frame) }
    }
    return taken
  }

  private static func readUntilClosed(_ socket: UnixSocket, _ decoder: inout FrameDecoder) throws -> [String] {
    try read(socket, &decoder, frames: .max)
  }
}
