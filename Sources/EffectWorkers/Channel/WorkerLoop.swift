import EffectRequests
import Glibc
import Platform
import Wire

/// The worker's command loop: it reads the daemon's frames from file
/// descriptor 3 and hands each command to the engine, on one thread.
///
/// The loop waits in `poll` until a command arrives or the engine's next wake
/// time (a timer's deadline) comes, so one thread serves the socket and every
/// timer. It answers `ping` itself, at once, whatever the engine is doing on
/// other threads. It ends the process: with status 0 when the daemon closes
/// the socket (it stopped the worker, or it died — no worker outlives it),
/// and with ``ExitStatus/protocolError`` when a frame or message cannot be
/// read, after logging why; the daemon then starts a fresh worker.
struct WorkerLoop {
  let channel: WorkerChannel
  let engine: any WorkerEngine
  /// How many bytes one `read` takes at most.
  var readSize = 256 * 1024

  func run() -> Never {
    let log = channel.log
    let socket = channel.socket
    var decoder = FrameDecoder(maximum: WorkerProtocol.maximumFrame)
    while true {
      var descriptor = pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, Self.pollTimeout(until: engine.nextWake(), now: MonotonicClock.now()))
      if ready < 0 && errno != EINTR {
        log.error("poll on the daemon's socket failed: \(String(cString: strerror(errno)))")
        _exit(ExitStatus.failure.rawValue)
      }
      if ready > 0 {
        let bytes: [UInt8]
        do {
          bytes = try socket.readReady(upTo: readSize)
        } catch {
          if error.errno == ECONNRESET { Self.daemonGone(log, decoder) }
          log.error("reading the daemon's socket failed: \(error)")
          _exit(ExitStatus.failure.rawValue)
        }
        if bytes.isEmpty { Self.daemonGone(log, decoder) }
        decoder.append(bytes)
        do {
          while let payload = try decoder.nextFrame() {
            handle(try WorkerCommand(payload: payload))
          }
        } catch {
          log.error("cannot read the daemon's message (\(error)); exiting so that the daemon starts a fresh worker")
          _exit(ExitStatus.protocolError.rawValue)
        }
      }
      engine.wake(at: MonotonicClock.now())
    }
  }

  private func handle(_ command: WorkerCommand) {
    switch command {
    case .ping(let id): channel.send(.pong(id: id))
    case .start(let id, let request, let store): engine.start(id, request, store: store)
    case .cancel(let id): engine.cancel(id)
    }
  }

  /// The `poll` timeout in milliseconds until `wake`: -1 (forever) for none,
  /// rounded up so the loop never wakes before the deadline.
  static func pollTimeout(until wake: MonotonicClock.Instant?, now: MonotonicClock.Instant) -> Int32 {
    guard let wake else { return -1 }
    guard wake > now else { return 0 }
    let (milliseconds, rest) = (wake - now).quotientAndRemainder(dividingBy: 1_000_000)
    return Int32(clamping: milliseconds + (rest > 0 ? 1 : 0))
  }

  private static func daemonGone(_ log: Logger, _ decoder: FrameDecoder) -> Never {
    do {
      try decoder.finish()
      log.info("the daemon closed the socket; exiting")
    } catch {
      log.info("the daemon closed the socket (\(error)); exiting")
    }
    _exit(ExitStatus.success.rawValue)
  }
}
