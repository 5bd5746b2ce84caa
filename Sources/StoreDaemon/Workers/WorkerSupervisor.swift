import ComposableCore
import Glibc
import JSON
import Platform
import Wire

/// Carries out the store's effects in worker processes, one per kind, and
/// supervises them like an OTP supervisor: the built-in kinds' workers and
/// the app's own (``AppWorker``), alike.
///
/// - Each request goes to its kind's worker; the reply-to-action mapping stays
///   in the store, keyed by the request's id. A request made while its worker
///   starts waits for it; one made while the kind is degraded fails at once.
/// - A worker that exits, breaks the protocol, or stops answering pings is
///   killed if need be and restarted (``RestartPolicy``); every request it
///   owed a reply fails, so no feature waits forever: with `interrupted` if
///   its `start` had been handed to the worker (it may have been carried out:
///   an HTTP request may have reached its server), with `workerUnavailable`
///   if it still waited to be sent (nothing of it happened). A request whose
///   reply is overdue fails with `timeout` and is cancelled in the worker.
/// - Workers are spawned only from the store loop's thread (``startAll()``
///   and the restarts in ``tick(now:)``), which lives as long as the daemon:
///   a worker asks the kernel to kill it when the thread that spawned it
///   ends (`PR_SET_PDEATHSIG`, docs/WORKERS.md), so spawning from a thread
///   that ends earlier would kill it.
///
/// Confined to the store loop's thread, like the store. The loop polls the
/// workers' ``sockets`` with its inbox and hands what is ready to
/// ``read(_:)``, which takes in what the workers said and returns the
/// replies for the store; the failures it makes up otherwise (a worker that
/// died, a deadline) wait in ``takeReplies()``, never delivered from inside
/// ``start(_:id:)``. Only a worker's end and exit are posted, from the
/// threads that watch it. Starts come from the journal's batch once its
/// actions are durable (``JournalCommitter``), so a worker never carries out
/// I/O for an action the journal does not have.
final class WorkerSupervisor: WorkerPool {
  struct Configuration: Sendable {
    /// The `effectworker` executable; the network worker's is beside it
    /// (``WorkerProtocol/executable(for:effectworker:)``).
    var executable: String
    /// The daemon's state directory; the storage worker keeps documents under it.
    var stateDirectory: String
    /// `NAME=value` strings for the workers' environment.
    var environment: [String]
    /// How often a running worker is pinged, and how long it has to answer.
    var pingInterval: Duration = .seconds(5)
    var pingTimeout: Duration = .seconds(10)
    var policy = RestartPolicy.standard
    /// How long a started worker has to say `ready`.
    var startTimeout: Duration = .seconds(10)
    /// How much longer than its own timeout a request may take before the
    /// daemon gives up on the worker's reply.
    var deadlineGrace: Duration = .seconds(5)
    /// How long a storage request may take.
    var storageDeadline: Duration = .seconds(30)
    /// How many requests may wait for a starting worker.
    var maximumQueued = 10_000
    /// The app's own kinds and their programs, checked and resolved
    /// (``AppWorker/prepare(_:daemonDirectory:stateDirectory:)``).
    var appWorkers: [AppWorker] = []
    /// The built-in kinds it runs a worker of: every one in the daemon. A
    /// request of a kind it runs none of fails at once, naming the kind.
    var builtInKinds = WorkerKind.builtIn
  }

  typealias Post = @Sendable (_ kind: WorkerKind, _ generation: Int, _ report: WorkerLink.Report) -> Void

  let configuration: Configuration
  private let post: Post
  /// One slot per kind, the built-in kinds first, then the app's in the
  /// order it declares them: an array, since the loop looks at every slot on
  /// every pass (``tick(now:)``, ``nextWakeup``).
  private let slots: [WorkerSlot]
  private var kinds: [EffectID: WorkerKind] = [:]
  private var replies: [(EffectReply, EffectID)] = []
  private var nextPingID = 1
  private var nextDeadlineCheck = ContinuousClock.now
  /// Deadlines are checked this often, not on every wakeup: they carry
  /// seconds of grace, and thousands of timers may be in flight.
  private static let deadlineCheckInterval: Duration = .milliseconds(250)

  init(configuration: Configuration, post: @escaping Post) {
    self.configuration = configuration
    self.post = post
    slots =
      configuration.builtInKinds.map { WorkerSlot(kind: $0) }
      + configuration.appWorkers.map { WorkerSlot(kind: $0.kind, program: $0) }
  }

  /// Starts every worker. Call on the store loop's thread (see the type's
  /// comment on `PR_SET_PDEATHSIG`).
  func startAll() {
    for slot in slots { spawn(slot) }
  }

  /// Stops every worker: their sockets close once queued commands are
  /// written, and requests still pending fail (`interrupted` for those a
  /// worker had been handed). Returns the links to wait for.
  func stopAll() -> [WorkerLink] {
    var links: [WorkerLink] = []
    for slot in slots {
      slot.phase = .stopped
      failAll(
        in: slot, EffectFailure(.workerUnavailable, "\(DaemonName.current) is shutting down"),
        handedOver: EffectFailure(
          .interrupted,
          "\(DaemonName.current) shut down after this request was handed to the \(slot.kind.rawValue) worker; "
            + "it may or may not have been carried out"))
      if let link = slot.link {
        link.stop()
        slot.input = nil
        link.release()
        links.append(link)
      }
    }
    return links
  }

  /// Whether replies wait for ``takeReplies()``.
  var hasReplies: Bool { !replies.isEmpty }

  /// Replies to deliver to the store, in order; empties the list.
  func takeReplies() -> [(EffectReply, EffectID)] {
    // Asked after every command: with none, nothing is copied or made.
    guard !replies.isEmpty else { return [] }
    defer { replies.removeAll(keepingCapacity: true) }
    return replies
  }

  /// Whether every worker kind has come to rest since the start: running, or
  /// degraded after crashing too often (its requests fail fast).
  var allSettled: Bool {
    slots.allSatisfy { slot in
      switch slot.phase {
      case .running, .degraded: true
      default: false
      }
    }
  }

  /// Each kind's phase by name (`running`, `degraded`, …), in kind order.
  var phases: [(kind: WorkerKind, phase: String)] {
    slots.map { ($0.kind, $0.phase.name) }
  }

  /// Each kind's figures for the metrics, in kind order: its phase, its
  /// restarts, and its requests handed to a process and queued for one.
  var figures: [(kind: WorkerKind, phase: String, restarts: Int, inFlight: Int, queued: Int)] {
    slots.map { ($0.kind, $0.phase.name, $0.history.total, $0.pending.count - $0.queue.count, $0.queue.count) }
  }

  /// How many pings the workers of `kind` have answered in time.
  func pingsAnswered(by kind: WorkerKind) -> Int {
    slot(kind)?.pingsAnswered ?? 0
  }

  /// Each worker as `tcactl status` shows it, in kind order.
  var status: JSONValue {
    .array(slots.map(\.status))
  }

  // MARK: EffectExecutor

  func start(_ request: EffectRequest, id: EffectID) {
    start(request, id: id, store: nil)
  }

  /// Starts `request` for the store `store` (nil: the default store), whose
  /// name the worker is given with it.
  func start(_ request: EffectRequest, id: EffectID, store: StoreName?) {
    guard let slot = route(request) else {
      replies.append((.failure(unroutable(request)), id))
      return
    }
    let pending = WorkerSlot.Pending(
      request: request, store: store, deadline: deadline(for: request, in: slot), sent: false)
    switch slot.phase {
    case .running:
      slot.pending[id] = pending
      kinds[id] = slot.kind
      send(id, in: slot)
    case .starting, .restarting:
      guard slot.queue.count < configuration.maximumQueued else {
        replies.append((.failure(unavailable(slot, "\(slot.queue.count) requests already wait for it to start")), id))
        return
      }
      slot.pending[id] = pending
      slot.queue.append(id)
      kinds[id] = slot.kind
    case .degraded(let retryAt):
      let wait = (retryAt - .now).components.seconds
      replies.append(
        (
          .failure(
            unavailable(
              slot,
              "it is degraded after crashing repeatedly; requests fail until it is tried again in \(max(wait, 0)) s")),
          id
        ))
    case .stopped:
      replies.append((.failure(EffectFailure(.workerUnavailable, "\(DaemonName.current) is shutting down")), id))
    }
  }

  func cancel(_ id: EffectID) {
    guard let kind = kinds.removeValue(forKey: id), let slot = slot(kind) else { return }
    guard let pending = slot.pending.removeValue(forKey: id) else { return }
    if pending.sent {
      _ = slot.link?.send(.cancel(id: id))
    } else {
      slot.queue.removeAll { $0 == id }
    }
  }

  // MARK: Reports from the workers

  /// A worker socket the loop polls: its descriptor, and whether commands
  /// wait for room in it.
  struct Socket: Equatable {
    var descriptor: Int32
    var isWaitingToWrite: Bool
  }

  /// The sockets the loop reads, by a key that names each worker process
  /// (its slot and generation), so that a descriptor number reused by a
  /// restarted worker is told from the one before.
  var sockets: [UInt64: Socket] {
    var sockets: [UInt64: Socket] = [:]
    for (index, slot) in slots.enumerated() {
      guard slot.input != nil, let link = slot.link else { continue }
      sockets[Self.key(index, slot)] = Socket(descriptor: link.descriptor, isWaitingToWrite: link.isWaitingToWrite)
    }
    return sockets
  }

  /// Whether `watched` is exactly ``sockets``; without allocating, for the
  /// loop to ask on every turn.
  func socketsAre(_ watched: [UInt64: Socket]) -> Bool {
    var count = 0
    for index in slots.indices {
      guard slots[index].input != nil, let link = slots[index].link else { continue }
      count += 1
      guard let socket = watched[Self.key(index, slots[index])], socket.descriptor == link.descriptor,
        socket.isWaitingToWrite == link.isWaitingToWrite
      else { return false }
    }
    return count == watched.count
  }

  private static func key(_ index: Int, _ slot: WorkerSlot) -> UInt64 {
    UInt64(index) << 32 | UInt64(UInt32(truncatingIfNeeded: slot.generation))
  }

  /// Reads the workers whose sockets `poll` found ready, in `ready`, and
  /// takes in what they said (``handle(_:kind:generation:)``); returns the
  /// replies for the store, in order, with any failure made up meanwhile. A
  /// worker whose input ended is not read again: its link reaps it and posts
  /// its exit.
  func read(_ ready: [Int32]) -> [(EffectReply, EffectID)] {
    for slot in slots {
      guard let link = slot.link, ready.contains(link.descriptor), var input = slot.input.take() else {
        continue
      }
      let (events, isOpen) = input.read(from: link)
      if isOpen {
        slot.input = input
      } else {
        slot.input = nil
        link.release()
      }
      for event in events { handle(.event(event), kind: slot.kind, generation: slot.generation) }
    }
    return takeReplies()
  }

  /// Writes the commands waiting for the workers whose sockets `poll` found
  /// with room, in `writable`.
  func writeWaiting(_ writable: [Int32]) {
    for slot in slots {
      guard slot.input != nil, let link = slot.link, writable.contains(link.descriptor) else { continue }
      link.writeWaiting()
    }
  }

  /// Handles what a worker reported.
  func handle(_ report: WorkerLink.Report, kind: WorkerKind, generation: Int) {
    guard let slot = slot(kind), generation == slot.generation else { return }
    switch report {
    case .event(.ready(_, let pid, _)):
      guard case .starting = slot.phase else { return }
      slot.phase = .running
      slot.nextPingAt = .now + configuration.pingInterval
      Log.info("\(kind.rawValue) worker ready (pid \(pid))")
      let queued = slot.queue
      slot.queue.removeAll()
      // Only durable actions' starts reach the supervisor: all may go.
      for id in queued { send(id, in: slot) }

    case .event(.reply(let id, let reply)):
      guard let pending = slot.pending[id], pending.sent else { return }
      if pending.request.isFinal(reply) {
        slot.pending[id] = nil
        kinds[id] = nil
      }
      replies.append((reply, id))

    case .event(.pong(let id)):
      if slot.outstandingPing?.id == id {
        slot.outstandingPing = nil
        slot.pingsAnswered += 1
      }

    case .ended:
      // The process is gone, though its socket may live on in a process it
      // started: what it wrote before it ended is read, then the link is
      // released, which reaps it, closes the socket and reports the exit.
      guard let link = slot.link, var input = slot.input.take() else { return }
      for event in input.read(link.readRemaining(), from: link).events {
        handle(.event(event), kind: kind, generation: generation)
      }
      link.release()

    case .exited(let reason):
      exited(slot, reason: reason)
    }
  }

  private func exited(_ slot: WorkerSlot, reason: String) {
    let pid = slot.link.map { " (pid \($0.pid))" } ?? ""
    slot.link = nil
    slot.outstandingPing = nil
    slot.lastExit = reason
    if slot.phase == .stopped { return }
    let worker = "the \(slot.kind.rawValue) worker\(pid) \(reason)"
    failAll(
      in: slot, EffectFailure(.workerUnavailable, "\(worker) before this request was handed to it"),
      handedOver: EffectFailure(
        .interrupted, "\(worker) after this request was handed to it; it may or may not have been carried out"))
    scheduleRestart(slot, after: worker)
  }

  private func scheduleRestart(_ slot: WorkerSlot, after what: String) {
    switch slot.history.crashed(at: .now, policy: configuration.policy) {
    case .restart(let delay):
      slot.phase = .restarting(at: .now + delay)
      Log.warning("\(what); restarting it\(delay == .zero ? "" : " in \(delay)")")
    case .degrade(let retry):
      slot.phase = .degraded(retryAt: .now + retry)
      failAll(in: slot, unavailable(slot, "it is degraded after crashing repeatedly"))
      Log.error(
        "\(what); it crashed more than \(configuration.policy.maximumRestarts) times within \(configuration.policy.period): "
          + "the kind is degraded and its requests fail until one more try in \(retry)")
    }
  }

  // MARK: Time

  /// Restarts what is due, pings, and enforces deadlines; call on every
  /// wakeup of the loop.
  func tick(now: ContinuousClock.Instant = .now) {
    for slot in slots {
      switch slot.phase {
      case .restarting(let at) where at <= now, .degraded(let at) where at <= now:
        spawn(slot)
      case .starting(let since) where now - since > configuration.startTimeout:
        Log.error("\(slot.kind.rawValue) worker did not say ready within \(configuration.startTimeout); killing it")
        slot.link?.kill()
      case .running:
        if let ping = slot.outstandingPing {
          if now - ping.sentAt > configuration.pingTimeout {
            Log.error(
              "\(slot.kind.rawValue) worker has not answered a ping for \(configuration.pingTimeout); killing it")
            slot.outstandingPing = nil
            slot.link?.kill()
          }
        } else if now >= slot.nextPingAt, let link = slot.link {
          slot.outstandingPing = (nextPingID, now)
          _ = link.send(.ping(id: nextPingID))
          nextPingID += 1
          slot.nextPingAt = now + configuration.pingInterval
        }
      default:
        break
      }
    }
    if now >= nextDeadlineCheck {
      nextDeadlineCheck = now + Self.deadlineCheckInterval
      for slot in slots { expireOverdue(in: slot, now: now) }
    }
  }

  /// When ``tick(now:)`` next has something to do, at the latest.
  var nextWakeup: ContinuousClock.Instant {
    var wakeup = nextDeadlineCheck
    for slot in slots {
      switch slot.phase {
      case .restarting(let at), .degraded(let at): wakeup = min(wakeup, at)
      case .running: wakeup = min(wakeup, slot.nextPingAt)
      default: break
      }
    }
    return wakeup
  }

  private func expireOverdue(in slot: WorkerSlot, now: ContinuousClock.Instant) {
    let overdue = slot.pending.filter { $0.value.deadline.map { $0 <= now } ?? false }
    for (id, pending) in overdue.sorted(by: { $0.key < $1.key }) {
      cancel(id)
      let state = pending.sent ? "did not answer" : "did not start"
      replies.append(
        (
          .failure(
            EffectFailure(.timeout, "the \(slot.kind.rawValue) worker \(state) in time; the request was cancelled")), id
        ))
    }
  }

  // MARK: Helpers

  private func slot(_ kind: WorkerKind) -> WorkerSlot? {
    slots.first { $0.kind == kind }
  }

  /// The slot `request` goes to: its kind's, but never a built-in worker for
  /// a request of an app's own kind, which it could not read.
  private func route(_ request: EffectRequest) -> WorkerSlot? {
    guard let slot = slot(request.workerKind) else { return nil }
    if case .custom = request, slot.program == nil { return nil }
    return slot
  }

  /// The failure of a request no worker serves: it names the kinds there are.
  private func unroutable(_ request: EffectRequest) -> EffectFailure {
    let kind = request.workerKind
    let served = slots.isEmpty ? "none" : slots.map(\.kind.rawValue).joined(separator: ", ")
    if kind.isBuiltIn {
      guard slot(kind) != nil else {
        return EffectFailure(.workerUnavailable, "no \(kind) worker runs here; the kinds served are: \(served)")
      }
      return EffectFailure(
        .invalidRequest,
        "'\(kind)' is a built-in kind, whose requests are not an app's JSON; the kinds served are: \(served)")
    }
    return EffectFailure(
      .invalidRequest,
      "no worker serves the kind '\(kind)'; the kinds served are: \(served) (an app declares its own kinds with AppWorker)"
    )
  }

  private func spawn(_ slot: WorkerSlot) {
    slot.generation += 1
    let kind = slot.kind
    let generation = slot.generation
    let executable: String
    var arguments: [String]
    var environment = configuration.environment
    if let program = slot.program {
      executable = program.executable
      arguments = program.arguments
      environment += [
        "\(WorkerProtocol.kindVariable)=\(kind)",
        "\(WorkerProtocol.directoryVariable)=\(AppWorker.directory(for: kind, stateDirectory: configuration.stateDirectory))",
      ]
    } else {
      executable = WorkerProtocol.executable(for: kind, effectworker: configuration.executable)
      arguments = ["--kind", kind.rawValue, "--log-level", LogStream.minimumLevel.name]
      if kind == .storage { arguments += ["--state-dir", configuration.stateDirectory] }
    }
    do {
      slot.link = try WorkerLink.start(
        kind: kind, generation: generation, executable: executable, arguments: arguments, environment: environment
      ) { [post] report in post(kind, generation, report) }
      slot.input = WorkerInput()
      slot.phase = .starting(since: .now)
    } catch {
      slot.link = nil
      slot.input = nil
      slot.lastExit = "could not be started: \(error)"
      failAll(in: slot, unavailable(slot, "it could not be started: \(error)"))
      scheduleRestart(slot, after: "the \(kind.rawValue) worker could not be started: \(error)")
    }
  }

  private func send(_ id: EffectID, in slot: WorkerSlot) {
    guard var pending = slot.pending[id] else { return }
    if let link = slot.link, link.send(.start(id: id, request: pending.request, store: pending.store)) {
      pending.sent = true
      slot.pending[id] = pending
      return
    }
    slot.pending[id] = nil
    kinds[id] = nil
    replies.append((.failure(unavailable(slot, "it is not reading its requests")), id))
  }

  /// Fails every request of `slot`, in request order: with `handedOver` those
  /// whose `start` was given to the worker's link (it may have read and
  /// carried them out), with `failure` those still waiting to be sent.
  /// `handedOver` defaults to `failure`, for a slot without a process.
  private func failAll(in slot: WorkerSlot, _ failure: EffectFailure, handedOver: EffectFailure? = nil) {
    for (id, pending) in slot.pending.sorted(by: { $0.key < $1.key }) {
      kinds[id] = nil
      replies.append((.failure(pending.sent ? handedOver ?? failure : failure), id))
    }
    slot.pending.removeAll()
    slot.queue.removeAll()
  }

  private func unavailable(_ slot: WorkerSlot, _ reason: String) -> EffectFailure {
    var message = "the \(slot.kind.rawValue) worker is unavailable: \(reason)"
    if let lastExit = slot.lastExit { message += " (its last process \(lastExit))" }
    return EffectFailure(.workerUnavailable, message)
  }

  private func deadline(for request: EffectRequest, in slot: WorkerSlot) -> ContinuousClock.Instant? {
    let grace = configuration.deadlineGrace
    switch request {
    case .timer(let timer): return timer.repeats ? nil : .now + timer.duration + grace
    case .http(let http): return .now + .milliseconds(http.timeoutMilliseconds) + grace
    case .storage: return .now + configuration.storageDeadline
    // Only an app's own slot takes these (``route(_:)``).
    case .custom: return .now + (slot.program?.timeout ?? configuration.storageDeadline)
    }
  }
}
