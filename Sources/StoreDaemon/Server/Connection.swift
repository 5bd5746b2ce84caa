import ComposableCore
import Foundation
import Synchronization
import Wire

/// One client connection: a reader thread that turns frames into messages for
/// the store loop, and a writer thread that drains the connection's
/// ``Outbox``. The socket is closed by whichever thread ends last.
///
/// Hostile input is answered here, before it reaches the store: an oversized
/// frame or a silent client gets an error and a goodbye, invalid JSON or an
/// unknown message type gets an error and the connection goes on.
final class Connection: Sendable {
  let id: Int
  let socket: UnixSocket
  let outbox: Outbox
  private let threadsRunning = Atomic<Int>(2)

  init(id: Int, socket: UnixSocket, outboxLimit: Int) {
    self.id = id
    self.socket = socket
    self.outbox = Outbox(limit: outboxLimit)
  }

  /// Starts the reader and writer threads.
  func start(loop: StoreLoop, options: DaemonOptions) {
    Thread.detachNewThread { [self] in
      readLoop(loop: loop, options: options)
      loop.post(.disconnected(connectionID: id))
      outbox.finish()
      threadEnded()
    }
    Thread.detachNewThread { [self] in
      while let frame = outbox.next() {
        do {
          try socket.write(frame)
        } catch {
          break
        }
      }
      outbox.finish()
      // Wakes the reader, whether the peer is gone or the daemon said goodbye.
      socket.shutdown()
      threadEnded()
    }
  }

  /// Sends `message` and a goodbye, then closes.
  func closeWithError(id requestID: Int?, _ code: WireErrorCode, _ message: String) {
    outbox.offer(MessageCodec.frame(ServerMessage.error(id: requestID, code: code, message: message)), droppable: false)
    outbox.offer(MessageCodec.frame(ServerMessage.goodbye(reason: message)), droppable: false)
    outbox.finish()
  }

  private func threadEnded() {
    if threadsRunning.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
      socket.close()
    }
  }

  private func reply(_ message: ServerMessage) {
    outbox.offer(MessageCodec.frame(message), droppable: false)
  }

  private func readLoop(loop: StoreLoop, options: DaemonOptions) {
    var decoder = FrameDecoder(maximum: options.maximumFrame)
    var greeted = false
    try? socket.setReadTimeout(options.handshakeTimeout)
    while true {
      let bytes: [UInt8]
      do {
        bytes = try socket.read()
      } catch {
        if !greeted && (error.errno == EAGAIN || error.errno == EWOULDBLOCK) {
          closeWithError(id: nil, .timeout, "no hello within \(options.handshakeTimeout); closing")
        }
        return
      }
      if bytes.isEmpty {
        if let error = Result(catching: { () throws(FrameError) in try decoder.finish() }).failure {
          Log.info("connection \(id) closed mid-frame: \(error)")
        }
        return
      }
      decoder.append(bytes)
      while true {
        let payload: [UInt8]
        do {
          guard let next = try decoder.nextFrame() else { break }
          payload = next
        } catch {
          closeWithError(id: nil, .frame, "\(error); closing the connection")
          return
        }
        let message: ClientMessage
        do {
          let json = try MessageCodec.parse(payload)
          do {
            message = try ClientMessage(json: json)
          } catch {
            reply(.error(id: Self.requestID(in: json), code: error.code, message: error.message))
            continue
          }
        } catch {
          reply(.error(id: nil, code: error.code, message: error.message))
          continue
        }
        if !greeted {
          guard case .hello(let version, let client) = message else {
            closeWithError(id: message.id, .handshake, "the first message must be 'hello' with the protocol version")
            return
          }
          guard version == ProtocolVersion.current else {
            closeWithError(
              id: nil, .unsupportedVersion,
              "this daemon speaks protocol \(ProtocolVersion.current); the client asked for \(version)")
            return
          }
          greeted = true
          try? socket.setReadTimeout(.zero)
          loop.post(.connected(self, client: client))
          continue
        }
        if case .hello = message {
          reply(.error(id: nil, code: .handshake, message: "'hello' may be sent only once"))
          continue
        }
        loop.post(.message(connectionID: id, message))
      }
    }
  }

  private static func requestID(in json: JSONValue) -> Int? {
    if case .object(let object) = json, case .int(let id)? = object["id"] { return id }
    return nil
  }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
