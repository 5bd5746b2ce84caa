import ComposableCore
import Dispatch
import Features
import FoundationEssentials
import Glibc
import JSON
import Journal
import Platform
import Synchronization
import TestSupport
import Testing
import Wire

@testable import StoreDaemon

/// The seed apps as a hosted app, for the harness.
enum HarnessedSeedApps: HostedApp {
  static let name = "harnessed"
  static let version = "0"
  static func makeRoot() -> AppFeature { AppFeature() }
  static var initialState: AppFeature.State { AppFeature.State() }
}

/// A ``Turn`` and its collaborators in one process, without the event loop,
/// worker processes or a daemon: what the loop would hand the turn, a test
/// hands it, and what the turn answers or starts, the test reads. Clients
/// are connections on socket pairs whose other ends the test reads; the
/// workers are scripted (``ScriptedWorkers``); the journal is a real one
/// in a temporary directory, so that what is committed is on disk and a
/// refused sync is a real refusal. In the spirit of swift-nio's
/// `EmbeddedChannel`: nothing runs unless the test says so.
final class TurnHarness<App: HostedApp> {
  let turn: Turn<App>
  /// What the loop hands every request but a send to.
  let requests: ClientRequests<App>
  let workers = ScriptedWorkers()
  /// The wall clock the turn reads for each record's time, in milliseconds
  /// since the Unix epoch: it moves only when the test moves it.
  var now: Int64 = 1_000_000
  let directory: TemporaryDirectory
  /// The store's epoch, which `welcome` names and a resume may give.
  let epoch: String
  private let clients: ClientRegistry
  private let history: HistoryRequests
  /// What the history reader's thread posts to the loop.
  private let posted: PostedCommands
  private let gate = HoldGate()
  private let options: DaemonOptions
  private var nextConnection = 1

  /// A harness whose journal syncs as `syncPolicy` says; under `always`
  /// the turn syncs each batch itself, on the test's thread. With
  /// `allowsInternalActions`, clients may send the actions only effects
  /// send, as `--allow-internal-actions` lets them. With `catchesUp`, the
  /// publisher waits for versions it has not reached, as a replicated
  /// daemon's does.
  init(syncPolicy: SyncPolicy = .never, allowsInternalActions: Bool = false, catchesUp: Bool = false) throws {
    directory = try TemporaryDirectory(prefix: "turn-harness")
    var options = DaemonOptions(
      socketPath: directory.appending("unused.sock"), stateDirectory: directory.appending("state"))
    options.syncPolicy = syncPolicy
    options.allowsInternalActions = allowsInternalActions
    self.options = options
    try FileManager.default.createDirectory(atPath: options.stateDirectory, withIntermediateDirectories: true)
    let posted = PostedCommands()
    self.posted = posted
    let instance = try StoreInstance<App>(
      recovery: StoreInstance<App>.recover(options: options), options: options, workers: workers, replica: nil,
      catchesUp: catchesUp, gate: gate, dependencies: DependencyValues(), post: { posted.post($0) })
    turn = instance.turn
    requests = instance.requests
    history = instance.history
    clients = instance.clients
    epoch = instance.epoch
    // Nothing else waits: a batch under `always` is synced here.
    turn.loopIsIdle = { true }
    turn.wallClock = { [unowned self] in now }
  }

  deinit {
    try? turn.committer.close()
  }

  /// A client, connected and greeted, as the loop adds one.
  func connect(_ name: String = "harness") throws -> ScriptedClient {
    var pair: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
      throw HarnessError("socketpair: errno \(errno)")
    }
    // The daemon's end never blocks, as the loop's sockets do not.
    _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
    let connection = Connection(
      id: nextConnection, socket: UnixSocket(descriptor: pair[0]), outboxLimit: options.outboxLimit,
      maximumFrame: options.maximumFrame, gate: gate)
    nextConnection += 1
    let client = ConnectedClient(connection: connection, name: name)
    clients.add(client)
    return ScriptedClient(client: client, descriptor: pair[1])
  }

  /// What the loop does with a client's `send`.
  func send(_ path: String, _ arguments: [String] = [], id: Int, wait: Bool = false, from client: ScriptedClient) {
    turn.send(
      .path(path, arguments: arguments), id: id, wait: wait, from: client.client,
      notLeader: { _ in ("not the leader", nil) })
    turn.deliverWorkerReplies()
    turn.reportSettledWaits()
  }

  /// What the loop does with a client's `send` of an action as JSON.
  func send(action: JSONValue, id: Int, from client: ScriptedClient) {
    request(.send(id: id, action: .json(action)), from: client)
  }

  /// What the loop does with a client's request once flow control lets
  /// it be handled: any request but a send first makes everything reduced
  /// durable, and reads only what is.
  func request(_ message: ClientMessage, from client: ScriptedClient) {
    if case .send = message {} else { turn.makeDurable() }
    requests.answer(message, from: client.client)
    // A read of the journal (`log`, `get` at a version, what-if) is
    // answered on the reader's thread, which posts the answer to the loop.
    while client.client.historyPending {
      guard case .history(_, let connectionID, let requestID, let result)? = posted.next() else {
        Issue.record("the history reader posted no answer to request \(message) within a minute")
        return
      }
      _ = history.finish(connectionID: connectionID, requestID: requestID, result)
    }
    turn.deliverWorkerReplies()
    turn.reportSettledWaits()
  }

  /// What the loop does with a worker's reply.
  func deliver(_ reply: EffectReply, to id: EffectID) {
    turn.deliver(reply, to: id)
    turn.deliverWorkerReplies()
    turn.reportSettledWaits()
  }

  /// What the loop does once it has handled what arrived.
  func commit() {
    turn.commit()
  }

  /// What the loop does with a client's `send` it handles alone: the
  /// batch is committed at once, and the acknowledgement (or refusal) read.
  func sendAlone(
    _ path: String, _ arguments: [String] = [], id: Int, from client: ScriptedClient
  ) throws -> ServerMessage? {
    send(path, arguments, id: id, from: client)
    commit()
    return try client.messages().first
  }

  /// ``sendAlone(_:_:id:from:)`` of an action as JSON.
  func sendAlone(action: JSONValue, id: Int, from client: ScriptedClient) throws -> ServerMessage? {
    send(action: action, id: id, from: client)
    commit()
    return try client.messages().first
  }

  /// What a request other than a send is answered with.
  func ask(_ message: ClientMessage, from client: ScriptedClient) throws -> ServerMessage? {
    request(message, from: client)
    return try client.messages().first
  }

  /// The published state at `path`.
  func state(at path: String) throws -> JSONValue {
    try turn.publisher.value(at: path).get()
  }
}

/// The commands other threads post to the loop, which a harness takes in
/// when it waits for one.
final class PostedCommands: Sendable {
  private let commands = Mutex<[LoopCommand]>([])
  private let arrived = DispatchSemaphore(value: 0)

  func post(_ command: LoopCommand) {
    commands.withLock { $0.append(command) }
    arrived.signal()
  }

  /// The next command posted, waiting up to a minute for one.
  func next() -> LoopCommand? {
    guard arrived.wait(timeout: .now() + 60) == .success else { return nil }
    return commands.withLock { $0.removeFirst() }
  }
}

/// The workers' side of a harness: what the turn started and cancelled, in
/// order, and the failures it should make up next (a worker that died).
final class ScriptedWorkers: WorkerPool {
  private(set) var started: [(request: EffectRequest, id: EffectID, store: StoreName?)] = []
  private(set) var cancelled: [EffectID] = []
  var madeUp: [(EffectReply, EffectID)] = []

  func start(_ request: EffectRequest, id: EffectID) {
    start(request, id: id, store: nil)
  }

  func start(_ request: EffectRequest, id: EffectID, store: StoreName?) {
    started.append((request, id, store))
  }

  func cancel(_ id: EffectID) {
    cancelled.append(id)
  }

  func takeReplies() -> [(EffectReply, EffectID)] {
    defer { madeUp.removeAll() }
    return madeUp
  }
}

/// A client of a harness: the other end of its connection, read without
/// waiting.
final class ScriptedClient {
  let client: ConnectedClient
  private let descriptor: Int32
  private var decoder = FrameDecoder()

  init(client: ConnectedClient, descriptor: Int32) {
    self.client = client
    self.descriptor = descriptor
  }

  deinit {
    close(descriptor)
  }

  /// The messages written to the client since the last call, as a client
  /// library reads them.
  func messages() throws -> [ServerMessage] {
    try received().map { (json) throws(MessageError) in try ServerMessage(json: json) }
  }

  /// The messages written to the client since the last call. What did
  /// not fit the socket's buffer is written as it is read, as the loop
  /// writes it when the socket is writable again.
  func received() throws -> [JSONValue] {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      client.connection.outbox.flush()
      let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      if count <= 0 { break }
      decoder.append(buffer[0..<count])
    }
    var messages: [JSONValue] = []
    while let payload = try decoder.nextFrame() { messages.append(try MessageCodec.parse(payload)) }
    return messages
  }
}

struct HarnessError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
