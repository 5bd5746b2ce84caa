import Dispatch
import Foundation
import Glibc
import Platform
import Synchronization

/// The part of a ``TestHTTPServer`` its threads share: the listening socket,
/// the stop signal, the request log, the handler, and the open connections.
///
/// Threads hold this object, never the ``TestHTTPServer`` itself, so dropping
/// the last reference to the server runs its `deinit`, which stops everything.
final class HTTPServerCore: Sendable {
  /// The open connections and whether the server stopped, under one lock so
  /// that `stop()` never shuts down a descriptor a finished thread already
  /// closed (and the kernel may have handed out again).
  private struct Connections {
    var isStopped = false
    var open: Set<Int32> = []
    var accepted = 0
  }

  let listenerFD: Int32
  let port: UInt16
  let stopSignal: StopSignal
  let log = RequestLog()
  let handler: @Sendable (RecordedRequest) -> TestHTTPResponse
  private let connections = Mutex(Connections())
  /// Entered by the accept loop while it runs.
  private let acceptLoop = DispatchGroup()
  /// Entered by every connection thread while it runs.
  private let connectionThreads = DispatchGroup()

  /// How long ``stop()`` waits for threads (only a handler that blocks can make it wait).
  static let stopTimeout: Duration = .seconds(5)

  init(handler: @escaping @Sendable (RecordedRequest) -> TestHTTPResponse) throws(TestHTTPServerError) {
    let stopSignal: StopSignal
    do {
      stopSignal = try StopSignal()
    } catch {
      throw .socket(error)
    }
    do {
      (listenerFD, port) = try SocketCalls.listenOnLoopback()
    } catch {
      stopSignal.close()
      throw .socket(error)
    }
    self.stopSignal = stopSignal
    self.handler = handler
  }

  /// Starts accepting connections on a thread of its own.
  func start() {
    acceptLoop.enter()
    Thread.detachNewThread { [self] in
      acceptConnections()
      acceptLoop.leave()
    }
  }

  var isStopped: Bool { stopSignal.isFired }

  /// How many connections were accepted so far.
  var acceptedCount: Int { connections.withLock { $0.accepted } }

  /// Stops accepting, shuts every open connection (waking any thread blocked
  /// on one), and waits for the threads to finish. Safe to call more than once.
  func stop() {
    guard stopSignal.fire() else { return }
    connections.withLock { connections in
      connections.isStopped = true
      for fd in connections.open { shutdown(fd, Int32(SHUT_RDWR)) }
    }
    shutdown(listenerFD, Int32(SHUT_RDWR))
    if acceptLoop.wait(timeout: .now() + Self.stopTimeout.dispatchInterval) == .success {
      close(listenerFD)
    }
    if connectionThreads.wait(timeout: .now() + Self.stopTimeout.dispatchInterval) == .success {
      stopSignal.close()
    }
    // Otherwise a handler is still blocked; its descriptors are left open
    // rather than closed under a thread that may still use them.
  }

  /// Accepts connections until the server stops, each served on a new thread.
  private func acceptConnections() {
    while true {
      switch SocketCalls.wait(for: Int16(POLLIN), on: listenerFD, orStop: stopSignal.readFD, timeout: nil) {
      case .stopped:
        return
      case .timedOut, .ready:
        break
      }
      guard let fd = SocketCalls.accept(from: listenerFD) else {
        // Out of descriptors, or a connection reset while queued: try again shortly.
        usleep(10_000)
        continue
      }
      let number: Int? = connections.withLock { connections in
        guard !connections.isStopped else { return nil }
        connections.accepted += 1
        connections.open.insert(fd)
        connectionThreads.enter()
        return connections.accepted
      }
      guard let number else {
        close(fd)
        return
      }
      Thread.detachNewThread { [self] in
        var connection = HTTPConnection(fd: fd, number: number, core: self)
        let ending = connection.serve()
        connections.withLock { _ = $0.open.remove(fd) }
        switch ending {
        case .abort: close(fd)
        case .closeGracefully: SocketCalls.closeGracefully(fd, stopFD: stopSignal.readFD)
        }
        connectionThreads.leave()
      }
    }
  }
}
