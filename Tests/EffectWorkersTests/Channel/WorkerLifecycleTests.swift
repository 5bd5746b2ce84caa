import ComposableCore
import Foundation
import Glibc
import TestSupport
import Testing
import Wire

/// How a worker starts, what it keeps, and how it ends, for every kind.
@Suite(.ownThreads) struct WorkerLifecycleTests {
  static func arguments(for kind: WorkerKind, in directory: TemporaryDirectory) -> [String] {
    kind == .storage ? ["--state-dir", directory.appending("state")] : []
  }

  @Test(arguments: WorkerKind.builtIn)
  func readyComesFirstNamingKindPidAndProtocol(_ kind: WorkerKind) throws {
    let directory = try TemporaryDirectory()
    let worker = try SpawnedWorker(kind, arguments: Self.arguments(for: kind, in: directory), in: directory)
    #expect(worker.ready == .ready(kind: kind, pid: worker.pid, protocol: WorkerProtocol.version))
    #expect(try worker.eventsBeforePong(7).isEmpty)
    let lines = worker.log.split(separator: "\n")
    #expect(!lines.isEmpty)
    #expect(lines.allSatisfy { $0.hasPrefix("effectworker[\(kind.rawValue)]: ") })
  }

  /// The daemon closing its end (it exited, or was killed with -9) ends the
  /// worker at once with status 0, whatever is still in flight.
  @Test(arguments: WorkerKind.builtIn)
  func endOfFileEndsTheWorkerWithStatusZeroEvenWithRequestsInFlight(_ kind: WorkerKind) throws {
    let directory = try TemporaryDirectory()
    let silent = try LoopbackPort(.silent)
    let worker = try SpawnedWorker(kind, arguments: Self.arguments(for: kind, in: directory), in: directory)
    // What is in flight would take an hour: an exit within the wait below
    // can only be the end of file's doing.
    switch kind {
    case .timer:
      try worker.send([
        .start(id: 1, request: .timer(.after(.seconds(3600)))),
        .start(id: 2, request: .timer(.every(.milliseconds(10)))),
      ])
    case .network:
      try worker.send(.start(id: 1, request: .http(.get(silent.url("/never"), timeout: .seconds(3600)))))
    case .storage:
      let document = Data(repeating: 7, count: 4 << 20)
      try worker.send(
        (1...4).map { .start(id: $0, request: .storage(.put(namespace: "n", key: "k\($0)", value: document))) })
    default:
      Issue.record("no long request for the kind \(kind)")
    }
    _ = try worker.eventsBeforePong(1)
    worker.closeSocket()
    let outcome = worker.waitForExit(timeout: .seconds(60))
    #expect(outcome == .exited(0), "log:\n\(worker.log)")
    // Said by the reader that met the end of file or, when a reply to what
    // was in flight (a tick, a stored document) was being written, by the
    // write that met the closed socket first: whichever thread ran first.
    #expect(
      worker.log.contains("the daemon closed the socket; exiting")
        || worker.log.contains("the daemon is gone (write failed: Broken pipe); exiting"),
      "\(worker.log)")
  }

  @Test(arguments: [
    ("not JSON", Array(try! FrameEncoder.frame(Array("hello".utf8)))),
    ("an unknown command", Array(try! FrameEncoder.frame(Array(#"{"type":"launch","id":1}"#.utf8)))),
    ("a start without a request", Array(try! FrameEncoder.frame(Array(#"{"type":"start","id":1}"#.utf8)))),
    ("a header over the maximum", [0xFF, 0xFF, 0xFF, 0xFF]),
  ])
  func anUnreadableFrameEndsTheWorkerWithStatus65(_ what: String, _ bytes: [UInt8]) throws {
    let directory = try TemporaryDirectory()
    let worker = try SpawnedWorker(.timer, in: directory)
    try worker.sendRaw(bytes)
    let outcome = worker.waitForExit(timeout: .seconds(60))
    #expect(outcome == .exited(65), "\(what): log:\n\(worker.log)")
    #expect(worker.log.contains("cannot read the daemon's message"), "\(what)")
  }

  /// A descriptor this process leaks (not close-on-exec) never reaches the
  /// worker: the spawn closes every one but 0 to 3 in the child.
  @Test func leakedDescriptorsNeverReachTheWorker() throws {
    let directory = try TemporaryDirectory()
    let leakedPath = directory.appending("leaked")
    #expect(FileManager.default.createFile(atPath: leakedPath, contents: Data("x".utf8)))
    // Deliberately not close-on-exec, and above 3 (which the child's socket
    // takes) whatever this process has open.
    let opened = open(leakedPath, O_RDONLY | O_CLOEXEC)
    let leaked = fcntl(opened, F_DUPFD, 100)
    close(opened)
    try #require(leaked >= 100)
    let worker: SpawnedWorker
    do {
      defer { close(leaked) }
      worker = try SpawnedWorker(.timer, arguments: ["--log-level", "debug"], in: directory)
    }
    let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(worker.pid)/fd")
    for name in descriptors {
      let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(worker.pid)/fd/\(name)")
      #expect(target != leakedPath, "descriptor \(name) still open on the leaked file")
    }
  }

  /// A terminal's ^C reaches the whole process group; the worker leaves it to
  /// the daemon to stop it.
  @Test func sigintIsIgnored() throws {
    let directory = try TemporaryDirectory()
    let worker = try SpawnedWorker(.timer, in: directory)
    kill(worker.pid, SIGINT)
    #expect(try worker.perform(.timer(.after(.milliseconds(50))), id: 1) == .timerFired(tick: 1))
    #expect(worker.waitForExit(timeout: .zero) == nil)
  }
}
