import ComposableCore
import Dispatch
import Foundation
import Glibc
import JSON
import Synchronization
import TestSupport
import Testing
import Wire

@testable import StoreDaemon

/// An app's own worker kind under the daemon's real supervisor: the Todos
/// example's Python `export` worker, started, pinged, routed to, killed and
/// restarted like the built-in workers.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(5))) struct AppWorkerSupervisionTests {
  static let export: WorkerKind = "export"

  static func request(file: String, titles: [String]) -> EffectRequest {
    .custom(
      kind: export,
      payload: .object([
        "file": .string(file),
        "todos": .array(titles.map { .object(["title": .string($0), "isComplete": .bool(false)]) }),
      ]))
  }

  @Test func aRequestOfTheKindGoesToItsWorkerAndItsAnswerComesBack() throws {
    let run = try SupervisedRun()
    try run.waitUntilRunning(Self.export)
    run.supervisor.start(Self.request(file: "todos.md", titles: ["Milk", "Eggs"]), id: 1)
    let reply = try run.reply(to: 1)
    let path = run.stateDirectory.appending("workers/export/todos.md")
    #expect(reply == .custom(.object(["path": .string(path), "count": .int(2), "bytes": .int(22)])))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "- [ ] Milk\n- [ ] Eggs\n")
    let status = try run.status(of: Self.export)
    #expect(status["state"] == .string("running"))
    #expect(status["restarts"] == .int(0))
  }

  @Test func itsPingsAreAnswered() throws {
    let run = try SupervisedRun(pingInterval: .milliseconds(20))
    try run.waitUntilRunning(Self.export)
    try run.pump(until: "the export worker has answered 5 pings") {
      run.supervisor.pingsAnswered(by: Self.export) >= 5
    }
    #expect(try run.status(of: Self.export)["restarts"] == .int(0))
  }

  @Test func aBadRequestFailsWithTheWorkersMessage() throws {
    let run = try SupervisedRun()
    try run.waitUntilRunning(Self.export)
    run.supervisor.start(Self.request(file: "../escape.md", titles: []), id: 2)
    guard case .failure(let failure) = try run.reply(to: 2) else {
      Issue.record("a bad request did not fail")
      return
    }
    #expect(failure.kind == .invalidRequest)
    #expect(failure.message.contains("'file' must be a plain file name"), "\(failure.message)")
  }

  @Test func aKindNoWorkerServesFailsAtOnceNamingTheKindsServed() throws {
    let run = try SupervisedRun()
    run.supervisor.start(.custom(kind: "email", payload: .object([:])), id: 3)
    run.supervisor.start(.custom(kind: .timer, payload: .object([:])), id: 4)
    let replies = Dictionary(uniqueKeysWithValues: run.supervisor.takeReplies().map { ($0.1, $0.0) })
    #expect(
      replies[3]
        == .failure(
          EffectFailure(
            .invalidRequest,
            "no worker serves the kind 'email'; the kinds served are: timer, network, storage, export "
              + "(an app declares its own kinds with AppWorker)")))
    guard case .failure(let builtIn) = replies[4] else {
      Issue.record("a custom request of a built-in kind did not fail: \(String(describing: replies[4]))")
      return
    }
    #expect(builtIn.kind == .invalidRequest)
    #expect(builtIn.message.contains("'timer' is a built-in kind"), "\(builtIn.message)")
  }

  /// `kill -9` while a request is pending: the request fails as
  /// `interrupted`, the worker is restarted, and the next request is served.
  @Test func killedWithARequestPendingItIsRestartedAndTheRequestFailsAsInterrupted() throws {
    let run = try SupervisedRun()
    try run.waitUntilRunning(Self.export)
    let old = try run.pid(of: Self.export)
    // Stopped, it cannot answer: the request is certainly pending when it dies.
    kill(old, SIGSTOP)
    run.supervisor.start(Self.request(file: "a.md", titles: ["Milk"]), id: 5)
    #expect(try run.status(of: Self.export)["inFlight"] == .int(1))
    kill(old, SIGKILL)
    guard case .failure(let failure) = try run.reply(to: 5) else {
      Issue.record("the pending request did not fail")
      return
    }
    #expect(failure.kind == .interrupted)
    #expect(
      failure.message
        == "the export worker (pid \(old)) was killed by signal 9 (Killed) after this request was handed to it; "
        + "it may or may not have been carried out")

    try run.waitUntilRunning(Self.export)
    #expect(try run.pid(of: Self.export) != old)
    #expect(try run.status(of: Self.export)["restarts"] == .int(1))
    #expect(try run.status(of: Self.export)["lastExit"] == .string("was killed by signal 9 (Killed)"))
    run.supervisor.start(Self.request(file: "b.md", titles: ["Eggs"]), id: 6)
    guard case .custom = try run.reply(to: 6) else {
      Issue.record("the restarted worker did not serve the next request")
      return
    }
  }

  /// A cancelled request's answer, if it still comes, reaches no one.
  @Test func aCancelledRequestsAnswerIsDropped() throws {
    let run = try SupervisedRun()
    try run.waitUntilRunning(Self.export)
    let pid = try run.pid(of: Self.export)
    kill(pid, SIGSTOP)
    run.supervisor.start(Self.request(file: "a.md", titles: []), id: 7)
    run.supervisor.cancel(7)
    run.supervisor.start(Self.request(file: "b.md", titles: []), id: 8)
    kill(pid, SIGCONT)
    // The worker answers in order: 7's answer came, and was dropped, before 8's.
    guard case .custom = try run.reply(to: 8) else {
      Issue.record("the request after the cancelled one was not served")
      return
    }
    #expect(run.replies[7] == nil)
  }

  /// Crashing more often than the policy allows degrades the kind, like a
  /// built-in one: its requests fail at once.
  @Test func crashingTooOftenDegradesTheKind() throws {
    var policy = RestartPolicy.standard
    policy.maximumRestarts = 0
    policy.degradedRetry = .seconds(3600)
    let run = try SupervisedRun(policy: policy)
    try run.waitUntilRunning(Self.export)
    kill(try run.pid(of: Self.export), SIGKILL)
    try run.pump(until: "the export kind is degraded") {
      (try? run.status(of: Self.export)["state"]) == .string("degraded")
    }
    run.supervisor.start(Self.request(file: "a.md", titles: []), id: 9)
    guard case .failure(let failure) = try run.reply(to: 9) else {
      Issue.record("a request to a degraded kind did not fail")
      return
    }
    #expect(failure.kind == .workerUnavailable)
    #expect(failure.message.contains("the export worker is unavailable: it is degraded"), "\(failure.message)")
  }
}

/// The real ``WorkerSupervisor`` with the built-in workers and the Python
/// `export` worker, driven as the store loop drives it: poll its sockets,
/// read them, hand it what the link threads posted, tick.
final class SupervisedRun {
  let stateDirectory: TemporaryDirectory
  let supervisor: WorkerSupervisor
  private let posted: Posted
  private(set) var replies: [EffectID: EffectReply] = [:]

  /// What the link threads posted, for the driving thread to hand over.
  final class Posted: Sendable {
    let reports = Mutex<[(WorkerKind, Int, WorkerLink.Report)]>([])
  }

  init(pingInterval: Duration = .seconds(5), policy: RestartPolicy = .standard) throws {
    _ = try ExampleWorkers.python3()
    stateDirectory = try TemporaryDirectory()
    let appWorkers = try AppWorker.prepare(
      [AppWorker(kind: "export", executable: ExampleWorkers.todosExport)], daemonDirectory: "/nonexistent",
      stateDirectory: stateDirectory.path)
    var configuration = WorkerSupervisor.Configuration(
      executable: DaemonProcess.productsDirectory.appendingPathComponent("effectworker").path,
      stateDirectory: stateDirectory.path, environment: ["PATH=\(ExampleWorkers.path)"], appWorkers: appWorkers)
    configuration.pingInterval = pingInterval
    configuration.pingTimeout = .seconds(30)
    configuration.policy = policy
    let posted = Posted()
    self.posted = posted
    supervisor = WorkerSupervisor(configuration: configuration) { kind, generation, report in
      posted.reports.withLock { $0.append((kind, generation, report)) }
    }
    supervisor.startAll()
  }

  /// Stops the workers as the daemon does: end of file, then SIGKILL for one
  /// that does not exit (a test may have left it stopped).
  deinit {
    for link in supervisor.stopAll() where !link.waitUntilExited(deadline: ContinuousClock.now + .seconds(5)) {
      link.kill()
      _ = link.waitUntilExited(deadline: ContinuousClock.now + .seconds(60))
    }
  }

  /// One pass of the store loop: waits a little for the workers' sockets,
  /// writes and reads what is ready, takes in what was posted, and ticks.
  func pumpOnce() {
    var descriptors = supervisor.sockets.values.map { socket in
      pollfd(
        fd: socket.descriptor, events: Int16(POLLIN) | (socket.isWaitingToWrite ? Int16(POLLOUT) : 0), revents: 0)
    }
    _ = poll(&descriptors, nfds_t(descriptors.count), 20)
    supervisor.writeWaiting(descriptors.filter { $0.revents & Int16(POLLOUT) != 0 }.map(\.fd))
    let ready = descriptors.filter { $0.revents & ~Int16(POLLOUT) != 0 }.map(\.fd)
    collect(supervisor.read(ready))
    for (kind, generation, report) in posted.reports.withLock({ reports in
      defer { reports = [] }
      return reports
    }) {
      supervisor.handle(report, kind: kind, generation: generation)
    }
    supervisor.tick()
    collect(supervisor.takeReplies())
  }

  private func collect(_ new: [(EffectReply, EffectID)]) {
    for (reply, id) in new { replies[id] = reply }
  }

  /// Pumps until `condition` holds, for at most a minute.
  func pump(until what: String, _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while try !condition() {
      guard ContinuousClock.now < deadline else { throw DaemonTestError("timed out waiting until \(what)") }
      pumpOnce()
    }
  }

  func waitUntilRunning(_ kind: WorkerKind) throws {
    try pump(until: "the \(kind) worker runs") { try status(of: kind)["state"] == .string("running") }
  }

  func reply(to id: EffectID) throws -> EffectReply {
    try pump(until: "request \(id) is answered") { replies[id] != nil }
    return replies[id]!
  }

  /// The kind's entry of `tcactl status`.
  func status(of kind: WorkerKind) throws -> JSONObject {
    guard case .array(let workers) = supervisor.status,
      let entry = workers.lazy.compactMap({ worker -> JSONObject? in
        guard case .object(let object) = worker, object["kind"] == .string(kind.rawValue) else { return nil }
        return object
      }).first
    else { throw DaemonTestError("no status for the \(kind) worker in \(supervisor.status)") }
    return entry
  }

  func pid(of kind: WorkerKind) throws -> pid_t {
    guard case .int(let pid)? = try status(of: kind)["pid"] else {
      throw DaemonTestError("the \(kind) worker has no pid")
    }
    return pid_t(pid)
  }
}
