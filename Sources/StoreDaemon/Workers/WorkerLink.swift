import ComposableCore
import Dispatch
import FoundationEssentials
import Glibc
import Platform
import Synchronization
import Wire

/// One running worker process and the daemon's end of its socketpair. The
/// store loop reads the socket itself, in the same `poll` as its inbox
/// (``WorkerInput``): a reply is reduced by the thread it wakes, with no
/// hand-off between threads. It writes the worker's commands too, without
/// ever waiting (``WorkerCommandQueue``): what the socket does not take at
/// once waits for the poll to say it has room (``writeWaiting()``), so the
/// store loop never waits on a worker.
///
/// When the loop stops reading (the worker closed its socket or broke the
/// protocol, or the daemon is stopping), it calls ``release()``: a thread then
/// writes the commands still waiting and the worker's end of file, makes
/// sure the process is gone (SIGKILL after a short grace), reaps it, closes
/// the socket and reports the exit once. A pid is only ever signalled
/// while it is known to be unreaped, so a recycled pid is never hit.
///
/// The socket may outlive the process: a process the worker started keeps
/// a copy of it, and then its end of file never comes. So a thread also
/// waits for the process itself to end and reports ``Report/ended``, on
/// which the loop stops reading and releases the link.
final class WorkerLink: Sendable {
  /// What the store loop learns of a worker: its messages, then its exit.
  enum Report: Sendable {
    case event(WorkerEvent)
    /// The process has ended (it is not reaped yet); its socket may still be
    /// open in a process it started.
    case ended
    /// The process is gone and reaped; `reason` says how, for logs and status.
    case exited(reason: String)
  }

  /// Bytes of commands that may wait for a worker; past this the worker is
  /// not reading, and new requests to it fail instead of growing memory.
  static let queueLimit = 16 << 20
  /// How long a worker may take to exit after its socket closes.
  static let exitGrace: Duration = .milliseconds(500)

  let kind: WorkerKind
  /// Counts the starts of this kind; reports from an older process are ignored.
  let generation: Int
  let pid: pid_t
  private let socket: UnixSocket
  private let writing: Mutex<Writing>
  private let isReaped = Mutex(false)
  private let exited = DispatchSemaphore(value: 0)
  private let report: @Sendable (Report) -> Void

  private init(
    kind: WorkerKind, generation: Int, child: ConnectedChild, report: @escaping @Sendable (Report) -> Void
  ) {
    self.kind = kind
    self.generation = generation
    self.pid = child.pid
    self.socket = child.socket
    self.report = report
    writing = Mutex(Writing(queue: WorkerCommandQueue(limit: Self.queueLimit)))
  }

  /// Who writes the socket, and what waits to be written: the store loop
  /// until ``release()``, then the thread that reaps the worker, which also
  /// closes the socket. Every write is made under the lock after checking
  /// ``isReleased``, so none reaches a descriptor the link let go of.
  private struct Writing {
    var queue: WorkerCommandQueue
    /// No command is taken any more: the worker was told to stop, the link
    /// was released, or a write failed.
    var isFinished = false
    /// The store loop has let go of the link.
    var isReleased = false
    /// The worker has been sent its end of file.
    var isShutDown = false
  }

  /// Spawns a worker and starts the thread that waits for it to end.
  /// `report` is called from other threads: with ``Report/ended`` once the
  /// process has ended, and with
  /// ``Report/exited(reason:)`` once, after ``release()``, when it is reaped.
  static func start(
    kind: WorkerKind, generation: Int, executable: String, arguments: [String], environment: [String],
    report: @escaping @Sendable (Report) -> Void
  ) throws(SocketError) -> WorkerLink {
    let child = try ConnectedChild.spawn(
      executable: executable, arguments: arguments, environment: environment,
      socketDescriptor: WorkerProtocol.socketDescriptor)
    let link = WorkerLink(kind: kind, generation: generation, child: child, report: report)
    do {
      try DetachedThread.start(name: "\(kind.rawValue)-wait") { link.waitForEnd() }
    } catch {
      // A worker whose end would go unseen is of no use: it fails to start.
      _ = Glibc.kill(child.pid, SIGKILL)
      var status: Int32 = 0
      while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
      child.socket.close()
      throw SocketError("pthread_create", errno: error.errno, detail: "\(error)")
    }
    return link
  }

  /// The socket the store loop polls and reads until ``release()``.
  var descriptor: Int32 { socket.descriptor }

  /// Reads what has arrived, for a reader that has just seen the socket
  /// readable; empty at end of file. Only before ``release()``.
  func read() throws(SocketError) -> [UInt8] {
    try socket.readReady()
  }

  /// The store loop will not read the socket again: reaps the process on a
  /// thread of its own, and then reports its exit. Once only; later calls do
  /// nothing.
  func release() {
    let first = writing.withLock { writing in
      defer {
        writing.isReleased = true
        writing.isFinished = true
      }
      return !writing.isReleased
    }
    guard first else { return }
    let reapAndReport: @Sendable () -> Void = { [self] in
      let reason = reap()
      exited.signal()
      report(.exited(reason: reason))
    }
    do {
      try DetachedThread.start(name: "\(kind.rawValue)-reap", reapAndReport)
    } catch {
      // With no thread to wait for it, the worker is killed, so that reaping
      // it here takes no time.
      Log.warning("\(error); killing the \(kind.rawValue) worker (pid \(pid)) to reap it at once")
      kill()
      reapAndReport()
    }
  }

  /// Writes `command`, or queues what the socket does not take at once;
  /// false when the worker has stopped reading (its queue is full) or the
  /// link is closing. Only the store loop calls it, before ``release()``.
  func send(_ command: WorkerCommand) -> Bool {
    guard let frame = try? WorkerProtocol.frame(command) else { return false }
    return writing.withLock { writing in
      guard !writing.isFinished else { return false }
      // Behind commands already waiting, it waits for room with them.
      let writesNow = writing.queue.isEmpty
      guard writing.queue.offer(frame) else { return false }
      if writesNow { write(&writing) }
      return true
    }
  }

  /// Whether commands wait for room in the socket: the store loop then
  /// watches it for room, and calls ``writeWaiting()`` when there is.
  var isWaitingToWrite: Bool {
    writing.withLock { !$0.isReleased && !$0.queue.isEmpty }
  }

  /// The bytes of commands waiting for room in the socket: more than a
  /// little for long means the worker has stopped reading.
  var unwrittenBytes: Int {
    writing.withLock { $0.queue.count }
  }

  /// Writes what waits, as far as the socket takes it without waiting; for
  /// the store loop, once its poll says the socket has room.
  func writeWaiting() {
    writing.withLock { writing in
      guard !writing.isReleased else { return }
      flush(&writing)
    }
  }

  /// Asks the worker to stop: it takes no more commands, and its socket
  /// reaches end of file once those waiting are written, and it exits.
  func stop() {
    writing.withLock { writing in
      writing.isFinished = true
      flush(&writing)
    }
  }

  /// Writes what waits without waiting and, once a link that takes no more
  /// commands has written its last, sends the worker its end of file.
  private func flush(_ writing: inout Writing) {
    write(&writing)
    if writing.isFinished && writing.queue.isEmpty { shutDownWriting(&writing) }
  }

  /// Writes what waits without waiting; a failed write means the worker's
  /// end is gone, and what it will never read is dropped.
  private func write(_ writing: inout Writing) {
    do {
      _ = try writing.queue.write(to: socket.descriptor)
    } catch {
      writing.queue.clear()
      writing.isFinished = true
    }
  }

  /// Sends the worker its end of file, once.
  private func shutDownWriting(_ writing: inout Writing) {
    guard !writing.isShutDown else { return }
    _ = Glibc.shutdown(socket.descriptor, Int32(SHUT_WR))
    writing.isShutDown = true
  }

  /// On the reaping thread, after ``release()``: writes what still waits,
  /// as far as the socket takes it, and then the worker's end of file.
  private func writeRemaining() {
    writing.withLock { writing in
      guard !writing.isShutDown else { return }
      flush(&writing)
    }
  }

  /// Kills the worker at once (it stopped answering, or broke the protocol).
  func kill() {
    isReaped.withLock { reaped in
      if !reaped { _ = Glibc.kill(pid, SIGKILL) }
    }
  }

  /// Waits until the process has been reaped, or `deadline`; false on timeout.
  func waitUntilExited(deadline: ContinuousClock.Instant) -> Bool {
    let nanoseconds = max(0, (deadline - .now) / .nanoseconds(1))
    guard exited.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else { return false }
    exited.signal()
    return true
  }

  /// Waits, without reaping (`WNOWAIT`, so ``kill()`` never signals a
  /// recycled pid), until the process has ended, and reports it. Returns
  /// early if ``reap()`` reaped it first (`ECHILD`).
  private func waitForEnd() {
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
      if errno != EINTR { return }
    }
    report(.ended)
  }

  /// Reads what the worker wrote and the loop has not read yet, without
  /// waiting: once the process has ended, its socket may never reach end of
  /// file. Only before ``release()``.
  func readRemaining() -> [UInt8] {
    var bytes: [UInt8] = []
    withUnsafeTemporaryAllocation(byteCount: 64 * 1024, alignment: 1) { buffer in
      while true {
        let count = recv(socket.descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
        if count > 0 {
          bytes += UnsafeRawBufferPointer(rebasing: buffer[..<count])
        } else if count < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
    return bytes
  }

  /// Writes the commands still waiting and the worker's end of file, waits
  /// for the process to end (killing it after ``exitGrace``), reaps it, and
  /// closes the socket.
  private func reap() -> String {
    let deadline = ContinuousClock.now + Self.exitGrace
    var status: Int32 = 0
    var killed = false
    // A worker that closed its socket is usually gone within microseconds
    // (the kernel closes a dying process's files just before it becomes a
    // zombie): look again soon, then less and less often, so that a crash is
    // reported, and the worker restarted, without waiting out a long sleep.
    var pause: useconds_t = 50
    while true {
      writeRemaining()
      // Nobody else reads the socket now: what the worker still writes is
      // dropped, so that it never blocks on a full socket instead of exiting.
      discardInput()
      // WNOWAIT: learn that it ended without reaping, so `kill()` can never
      // signal a recycled pid.
      var info = siginfo_t()
      let ended =
        waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
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
    socket.close()
    return ProcessExit(status: status).description
  }

  private func discardInput() {
    withUnsafeTemporaryAllocation(byteCount: 16 * 1024, alignment: 1) { buffer in
      while recv(socket.descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
    }
  }
}
