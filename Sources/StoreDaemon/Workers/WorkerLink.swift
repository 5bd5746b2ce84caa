import ComposableCore
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import Wire

/// One running worker process and the daemon's end of its socketpair: a reader
/// thread that turns frames into events for the store loop, and a writer thread
/// that drains the link's ``Outbox``, so the store loop never waits on a worker.
///
/// The reader owns the process's end: when the worker closes its socket, sends
/// something unreadable, or is told to stop, the reader makes sure the process
/// is gone (SIGKILL after a short grace), reaps it, closes the socket and posts
/// one ``Exit`` to the loop. A pid is only ever signalled while it is known to
/// be unreaped, so a recycled pid is never hit.
final class WorkerLink: Sendable {
  /// What the link tells the store loop.
  enum Report: Sendable {
    case event(WorkerEvent)
    /// The process is gone and reaped; `reason` says how, for logs and status.
    case exited(reason: String)
  }

  /// Bytes of commands that may wait for a worker; past this the worker is
  /// not reading, and new requests to it fail instead of growing memory.
  static let outboxLimit = 16 << 20
  /// How long a worker may take to exit after its socket closes.
  static let exitGrace: Duration = .milliseconds(500)

  let kind: WorkerKind
  /// Counts the starts of this kind; reports from an older process are ignored.
  let generation: Int
  let pid: pid_t
  private let socket: UnixSocket
  private let outbox: Outbox
  private let isReaped = Mutex(false)
  private let writerDone = DispatchSemaphore(value: 0)
  private let exited = DispatchSemaphore(value: 0)

  private init(kind: WorkerKind, generation: Int, child: WorkerSpawn.Child) {
    self.kind = kind
    self.generation = generation
    self.pid = child.pid
    self.socket = child.socket
    outbox = Outbox(limit: Self.outboxLimit, writingThroughTo: child.socket.descriptor)
  }

  /// Spawns a worker and starts its threads; `report` is called from the
  /// reader thread, in order, ending with exactly one `.exited`.
  static func start(
    kind: WorkerKind, generation: Int, executable: String, arguments: [String], environment: [String],
    report: @escaping @Sendable (Report) -> Void
  ) throws(SocketError) -> WorkerLink {
    let child = try WorkerSpawn.spawn(executable: executable, arguments: arguments, environment: environment)
    let link = WorkerLink(kind: kind, generation: generation, child: child)
    DetachedThread.start(name: "\(kind.rawValue)-write") { link.writeLoop() }
    DetachedThread.start(name: "\(kind.rawValue)-read") {
      link.readLoop(report: report)
      let reason = link.reap()
      link.exited.signal()
      report(.exited(reason: reason))
    }
    return link
  }

  /// Queues `command`; false when the worker has stopped reading (its queue
  /// is full) or the link is closing.
  func send(_ command: WorkerCommand) -> Bool {
    guard let frame = try? WorkerProtocol.frame(command) else { return false }
    return outbox.offer(frame, droppable: false)
  }

  /// Asks the worker to stop: its socket reaches end of file once the queued
  /// commands are written, and it exits.
  func stop() {
    outbox.finish()
  }

  /// Kills the worker at once (it stopped answering, or broke the protocol).
  func kill() {
    isReaped.withLock { reaped in
      if !reaped { _ = Glibc.kill(pid, SIGKILL) }
    }
  }

  /// Waits until the process has been reaped, or `deadline`; false on timeout.
  func waitUntilExited(deadline: DispatchTime) -> Bool {
    guard exited.wait(timeout: deadline) == .success else { return false }
    exited.signal()
    return true
  }

  private func writeLoop() {
    while let frame = outbox.next(upTo: Outbox.writeBatchBytes) {
      do {
        try socket.write(frame)
      } catch {
        break
      }
    }
    outbox.finish()
    // Nothing is written through once the reader may close the socket.
    outbox.retire()
    // End of file for the worker; the reader still sees its last replies.
    _ = Glibc.shutdown(socket.descriptor, Int32(SHUT_WR))
    writerDone.signal()
  }

  private func readLoop(report: @Sendable (Report) -> Void) {
    var decoder = FrameDecoder(maximum: WorkerProtocol.maximumFrame)
    var greeted = false
    while true {
      let bytes: [UInt8]
      do {
        bytes = try socket.read()
      } catch {
        Log.warning("\(kind.rawValue) worker (pid \(pid)): \(error)")
        return
      }
      if bytes.isEmpty { return }
      decoder.append(bytes)
      do {
        while let payload = try decoder.nextFrame() {
          let event = try WorkerEvent(payload: payload)
          if !greeted {
            guard case .ready(let kind, _, let version) = event, kind == self.kind, version == WorkerProtocol.version
            else {
              throw WorkerMessageError(
                "expected 'ready' for a \(self.kind.rawValue) worker speaking protocol \(WorkerProtocol.version), got \(event)")
            }
            greeted = true
          }
          report(.event(event))
        }
      } catch {
        Log.error("\(kind.rawValue) worker (pid \(pid)) broke the worker protocol: \(error); killing it")
        kill()
        return
      }
    }
  }

  /// Waits for the process to end (killing it after ``exitGrace``), reaps it,
  /// and closes the socket once the writer is done.
  private func reap() -> String {
    outbox.finish()
    let deadline = ContinuousClock.now + Self.exitGrace
    var status: Int32 = 0
    var killed = false
    // A worker that closed its socket is usually gone within microseconds
    // (the kernel closes a dying process's files just before it becomes a
    // zombie): look again soon, then less and less often, so that a crash is
    // reported, and the worker restarted, without waiting out a long sleep.
    var pause: useconds_t = 50
    while true {
      // WNOWAIT: learn that it ended without reaping, so `kill()` can never
      // signal a recycled pid.
      var info = siginfo_t()
      let ended = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
      if ended {
        isReaped.withLock { reaped in
          while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
          reaped = true
        }
        break
      }
      if !killed && ContinuousClock.now >= deadline {
        kill()
        killed = true
      }
      usleep(pause)
      pause = min(pause * 2, killed ? 1000 : 2000)
    }
    socket.shutdown()
    writerDone.wait()
    socket.close()
    return ProcessExit(status: status).description
  }
}
