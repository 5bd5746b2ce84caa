import Dispatch
import Glibc
import Platform
import Synchronization

/// An HTTP/1.1 server on a TCP address: a thread accepts connections and
/// each is served on a thread of its own, within ``HTTPLimits``, by a
/// handler that maps a request to an answer.
///
/// Meant for a few clients at a time (a person's browser tabs), where a
/// thread per connection is the simplest correct design: the limits bound
/// how many there are and how long a slow or silent client can hold one.
public final class HTTPServer: Sendable {
  /// The port the server listens on (the kernel's pick when asked for 0).
  public let port: UInt16
  public let limits: HTTPLimits
  private let listener: Int32
  private let stop: StopSignal
  private let handler: @Sendable (HTTPRequest) -> HTTPResponse
  private let state = Mutex(State())
  /// Signalled by the last thread to finish once the server is stopped.
  private let finished = DispatchSemaphore(value: 0)

  private struct State {
    /// Connections being served, so that ``shutDown()`` can wake their
    /// threads, and so that no more than the limit are.
    var open: Set<Int32> = []
    var isStopped = false
    var threads = 0
  }

  /// A socket listening on a TCP address, for a server to serve on: made
  /// first, so that a handler can know the port the kernel picked.
  public struct Listener: Sendable {
    let descriptor: Int32
    public let port: UInt16

    /// Listens on `host` (an IPv4 address) at `port` (0: a free one).
    ///
    /// - Throws: `SocketError` when the address is not one, or is taken.
    public init(host: String, port: UInt16) throws(SocketError) {
      (descriptor, self.port) = try SocketCalls.listen(host: host, port: port)
    }
  }

  /// Serves on `listener`, which it owns from now on.
  ///
  /// - Throws: `SocketError` when no stop signal can be made.
  public init(
    listener: Listener, limits: HTTPLimits = HTTPLimits(),
    handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
  ) throws(SocketError) {
    do {
      self.stop = try StopSignal()
    } catch {
      Glibc.close(listener.descriptor)
      throw error
    }
    self.listener = listener.descriptor
    self.port = listener.port
    self.limits = limits
    self.handler = handler
  }

  /// Listens on `host` (an IPv4 address) at `port` and serves there.
  ///
  /// - Throws: `SocketError` when the address is not one, or is taken.
  public convenience init(
    host: String, port: UInt16, limits: HTTPLimits = HTTPLimits(),
    handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
  ) throws(SocketError) {
    try self.init(listener: Listener(host: host, port: port), limits: limits, handler: handler)
  }

  /// Starts accepting on a thread of its own.
  ///
  /// - Throws: ``ThreadStartError`` when the system has no thread for it.
  public func start() throws(ThreadStartError) {
    state.withLock { $0.threads += 1 }
    do {
      try DetachedThread.start(name: "HTTP accept loop") { [self] in
        acceptConnections()
        finishThread()
      }
    } catch {
      finishThread()
      throw error
    }
  }

  /// How many connections are being served.
  public var openConnections: Int { state.withLock { $0.open.count } }

  /// Stops accepting, ends every connection (a stream's next write fails),
  /// and waits up to `timeout` for the threads to finish. Safe to call more
  /// than once.
  public func shutDown(timeout: Duration = .seconds(5)) {
    guard stop.fire() else { return }
    let running = state.withLock { state in
      state.isStopped = true
      for descriptor in state.open { Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
      return state.threads
    }
    Glibc.shutdown(listener, Int32(SHUT_RDWR))
    if running > 0 {
      let (seconds, attoseconds) = timeout.components
      let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
      _ = finished.wait(timeout: .now() + .nanoseconds(nanoseconds))
    }
    if state.withLock({ $0.threads }) == 0 {
      Glibc.close(listener)
      stop.close()
    }
    // Otherwise a handler is still running; its descriptors are left open
    // rather than closed under a thread that may still use them.
  }

  private func finishThread() {
    let last = state.withLock { state in
      state.threads -= 1
      return state.threads == 0 && state.isStopped
    }
    if last { finished.signal() }
  }

  /// Accepts until the server stops; each connection on a new thread, or
  /// answered 503 when the limit is reached or no thread can be had.
  private func acceptConnections() {
    while true {
      switch SocketCalls.wait(for: Int16(POLLIN), on: listener, orStop: stop.readFD, timeout: nil) {
      case .stopped: return
      case .timedOut, .ready: break
      }
      guard let descriptor = SocketCalls.accept(from: listener) else {
        // Out of descriptors, or a connection reset while queued: the
        // pending connection waits in the queue; try again shortly.
        _ = SocketCalls.wait(for: 0, on: listener, orStop: stop.readFD, timeout: .milliseconds(10))
        continue
      }
      let admitted: Bool? = state.withLock { state in
        guard !state.isStopped else { return nil }
        guard state.open.count < limits.maximumConnections else { return false }
        state.open.insert(descriptor)
        state.threads += 1
        return true
      }
      switch admitted {
      case nil:
        Glibc.close(descriptor)
        return
      case false:
        refuse(
          descriptor,
          HTTPRequestError(503, "the server serves \(limits.maximumConnections) connections at once; try again"))
      case true:
        do {
          try DetachedThread.start(name: "HTTP connection") { [self] in serve(descriptor) }
        } catch {
          state.withLock { state in
            state.open.remove(descriptor)
            state.threads -= 1
          }
          refuse(descriptor, HTTPRequestError(503, "the server could not start a thread for the connection: \(error)"))
        }
      }
    }
  }

  private func serve(_ descriptor: Int32) {
    var connection = HTTPServerConnection(descriptor: descriptor, limits: limits, stop: stop, handler: handler)
    let ending = connection.serve()
    state.withLock { _ = $0.open.remove(descriptor) }
    switch ending {
    case .abort: Glibc.close(descriptor)
    case .closeGracefully: SocketCalls.closeGracefully(descriptor, stopFD: stop.readFD)
    }
    finishThread()
  }

  /// Answers `error` without waiting for the client, and closes.
  private func refuse(_ descriptor: Int32, _ error: HTTPRequestError) {
    _ = SocketCalls.sendAll(HTTPResponseEncoder.rejection(error), to: descriptor, orStop: stop.readFD, timeout: .zero)
    Glibc.close(descriptor)
  }
}
