import ComposableCore
import Dispatch
import Foundation
import Glibc
import Platform
import Synchronization
import TestSupport
import Testing
import Wire

/// A clean stop (SIGTERM, SIGINT) answers what is in flight: every action it
/// journaled is acknowledged to its sender, and every client gets `goodbye`
/// before the daemon exits (docs/CLI.md).
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(20)))
struct CleanStopTests {
  @Test(arguments: [SIGTERM, SIGINT])
  func everyJournaledActionIsAcknowledgedAndEveryClientToldGoodbye(signal: Int32) throws {
    for round in 0..<3 {
      // The write timeout bounds how long the stop waits for a client that
      // does not read; here, long enough for the slow readers, and for the
      // idle clients, which read nothing until the stop, to stay connected
      // however long their actions take to be reduced beside other tests.
      let daemon = try DaemonProcess(arguments: ["--fsync", "never", "--write-timeout", "900"])
      // Idle clients have their acknowledgements queued behind 1.6 MB of
      // large answers, and start reading, slowly, only once the daemon is
      // stopping; busy ones keep the loop and the writers at work when the
      // signal comes.
      let idle = (0..<8).map { PipelinedClient(daemon.socketPath, name: "idle-\(round)-\($0)", lazy: true) }
      let observer = try daemon.client("observer")
      // A minute per 100 of the idle clients' large answers: this wait is
      // for 800 of them, and the whole suite may be running beside it.
      try waitUntil(
        "the idle clients' actions are reduced (the daemon is at "
          + "\(((try? observer.status()[path: "version"]) ?? nil).map { "\($0)" } ?? "an unknown version"), "
          + "clients that failed: \(idle.compactMap(\.failure)); the daemon said: \(daemon.standardError)",
        timeout: .seconds(480)
      ) {
        try observer.status()[path: "version"] == .int(idle.count * PipelinedClient.lazyWindow)
      }
      observer.close()
      let busy = (0..<16).map { PipelinedClient(daemon.socketPath, name: "busy-\(round)-\($0)", lazy: false) }
      let clients = busy + idle
      try waitUntil("the busy clients have a few hundred acknowledgements") {
        busy.map(\.acknowledged.count).reduce(0, +) >= 300
      }
      kill(daemon.pid, signal)
      try waitUntil("the daemon says it is stopping") { daemon.standardError.contains("stopping") }
      for client in idle { client.startReading() }
      for client in clients { client.waitUntilClosed() }
      daemon.process.waitUntilExit()
      #expect(daemon.process.terminationStatus == 0, "round \(round): \(daemon.standardError)")

      let withoutGoodbye = clients.filter { !$0.gotGoodbye }.map(\.name)
      #expect(withoutGoodbye.isEmpty, "round \(round): no goodbye for \(withoutGoodbye)")

      let restarted = try DaemonProcess(reusing: daemon)
      let journaled = try Self.journaledVersions(restarted)
      var unanswered: [String: Int] = [:]
      for client in clients {
        let missing = (journaled[client.name] ?? []).subtracting(client.acknowledged)
        if !missing.isEmpty { unanswered[client.name] = missing.count }
      }
      #expect(unanswered.isEmpty, "round \(round): actions journaled and never acknowledged, by sender: \(unanswered)")
      #expect(journaled.values.map(\.count).reduce(0, +) > 300, "round \(round): the load must have been journaled")
    }
  }

  /// A send waiting for its effects when the daemon stops hears them end
  /// (the stop fails the timer, and the failure's action settles it), and
  /// then goodbye: `settled` is an answer, which a clean stop gives.
  @Test func aWaitingSendIsSettledBeforeGoodbye() throws {
    let daemon = try DaemonProcess(arguments: ["--dice-roll", "600"])
    try daemon.waitForWorkers()
    let client = try RawConnection(daemon)
    try client.hello()
    try client.send(#"{"type":"send","id":5,"path":"dice.view.rollButtonTapped","wait":true}"#)
    guard case .ack(5, _)? = try client.read() else {
      Issue.record("the roll must be acknowledged")
      return
    }
    kill(daemon.pid, SIGTERM)
    let messages = try client.readUntilClosed()
    let settled = messages.firstIndex { if case .settled(5, _, _) = $0 { true } else { false } }
    let goodbye = messages.firstIndex { if case .goodbye = $0 { true } else { false } }
    #expect(settled != nil, "no settled for the waiting send: \(messages)")
    #expect(goodbye != nil && settled.map { $0 < goodbye! } == true, "\(messages)")
    daemon.process.waitUntilExit()
    #expect(daemon.process.terminationStatus == 0)
  }

  /// The versions in the journal, by the name of the client that sent each.
  private static func journaledVersions(_ daemon: DaemonProcess) throws -> [String: Set<UInt64>] {
    let reader = try daemon.client("reader")
    defer { reader.close() }
    var bySender: [String: Set<UInt64>] = [:]
    var since: UInt64 = 0
    while true {
      let page = try reader.log(since: since, last: nil)
      for record in page.records {
        if case .string(let name)? = record.origin[path: "client"] {
          bySender[name, default: []].insert(record.version)
        }
      }
      since = page.through
      if !page.more { return bySender }
    }
  }
}

/// A client on a thread of its own that sends increments in pipelined
/// windows and records the versions acknowledged, until the daemon says
/// goodbye or closes. A lazy one sends one window, behind many large
/// answers, reads nothing until ``startReading()``, and then reads slowly.
private final class PipelinedClient: Sendable {
  /// The increments a lazy client sends.
  static let lazyWindow = 200

  let name: String
  private let state = Mutex(State())
  private let reading = DispatchSemaphore(value: 0)
  private let closed = DispatchSemaphore(value: 0)

  private struct State {
    var acknowledged: Set<UInt64> = []
    var gotGoodbye = false
    /// What went wrong for this client, if anything did.
    var failure: String?
  }

  init(_ socketPath: String, name: String, lazy: Bool) {
    self.name = name
    Thread.detachNewThread { [self] in
      defer { closed.signal() }
      let socket: UnixSocket
      do {
        socket = try UnixSocket.connect(to: socketPath)
      } catch {
        state.withLock { $0.failure = "\(name): connect: \(error)" }
        return
      }
      defer { socket.close() }
      var decoder = FrameDecoder()
      var nextID = 1
      var window: [UInt8] = []
      func frame(_ json: String) -> [UInt8] { (try? FrameEncoder.frame(Array(json.utf8))) ?? [] }
      window += frame(#"{"type":"hello","protocol":1,"client":"\#(name)"}"#)
      if lazy {
        for _ in 0..<100 {
          window += frame(#"{"type":"actions","id":\#(nextID),"all":true}"#)
          nextID += 1
        }
      }
      var sending = true
      while true {
        if sending {
          for _ in 0..<(lazy ? Self.lazyWindow : 32) {
            window += frame(#"{"type":"send","id":\#(nextID),"path":"counter.incrementButtonTapped"}"#)
            nextID += 1
          }
          do {
            try socket.write(window)
          } catch {
            state.withLock { $0.failure = "\(name): write: \(error)" }
            sending = false
          }
          window = []
          if lazy {
            sending = false
            reading.wait()
          }
        }
        // Reads this window's answers, or everything once it stopped sending.
        var answered = 0
        while !sending || answered < 32 {
          guard let message = Self.read(socket, &decoder, slowly: lazy) else { return }
          switch message {
          case .ack(_, let version):
            answered += 1
            state.withLock { _ = $0.acknowledged.insert(version) }
          case .goodbye:
            state.withLock { $0.gotGoodbye = true }
            sending = false
          case .welcome, .actions:
            break
          default:
            answered += 1
          }
        }
      }
    }
  }

  var acknowledged: Set<UInt64> { state.withLock { $0.acknowledged } }
  var gotGoodbye: Bool { state.withLock { $0.gotGoodbye } }
  var failure: String? { state.withLock { $0.failure } }

  func startReading() { reading.signal() }

  func waitUntilClosed() { closed.wait() }

  /// The next message, or nil once the daemon closed the connection.
  /// Slowly: 1 KiB a read, so the daemon's writes to it must wait for room
  /// many times over.
  private static func read(_ socket: UnixSocket, _ decoder: inout FrameDecoder, slowly: Bool) -> ServerMessage? {
    while true {
      if let payload = try? decoder.nextFrame() {
        return try? ServerMessage(json: MessageCodec.parse(payload))
      }
      guard let bytes = try? socket.read(upTo: slowly ? 1024 : 64 * 1024, timeout: eventTimeout), !bytes.isEmpty else {
        return nil
      }
      decoder.append(bytes)
    }
  }
}
