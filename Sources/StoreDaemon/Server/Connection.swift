import ComposableCore
import Dispatch
import FoundationEssentials
import Glibc
import JSON
import Platform
import Synchronization
import Wire

/// One client connection: a reader thread that turns frames into messages for
/// the store loop, and a writer thread that drains the connection's
/// ``Outbox``.
///
/// Bounds, so one client can never hurt the others: the reader holds at most
/// ``creditLimit`` messages the loop has not handled yet (it stops reading
/// until the loop catches up); a write that waits longer than the write
/// timeout (`--write-timeout`) for the client to read ends the connection; a connection
/// must say `hello` within the handshake timeout, counted from `accept` (or
/// sooner when newer connections need the room: ``ConnectionRegistry``).
///
/// The socket is closed by whichever thread ends last, under a lock that
/// ``shutdownNow()`` also takes, so no thread ever touches a descriptor number
/// that was closed and reused.
final class Connection: Sendable {
  /// Messages posted to the loop and not yet handled, at most.
  static let creditLimit = 64

  let id: Int
  let socket: UnixSocket
  let outbox: Outbox
  /// The loop signals one credit per message it has handled. Created at zero
  /// and filled in `init`: libdispatch traps when a semaphore is freed with a
  /// count below the one it was created with.
  let credits = DispatchSemaphore(value: 0)
  private let lifecycle = Mutex<(threadsRunning: Int, isClosed: Bool)>((2, false))
  private let closing = Atomic<Bool>(false)
  private let saidHello = Atomic<Bool>(false)
  private let onEnd: @Sendable () -> Void

  init(id: Int, socket: UnixSocket, outboxLimit: Int, onEnd: @escaping @Sendable () -> Void = {}) {
    self.id = id
    self.socket = socket
    self.outbox = Outbox(limit: outboxLimit, writingThroughTo: socket.descriptor)
    self.onEnd = onEnd
    for _ in 0..<Self.creditLimit { credits.signal() }
  }

  /// Starts the writer and reader threads.
  ///
  /// - Throws: ``ThreadStartError`` when the system refuses either thread;
  ///   the client has then been told why (`too_many_clients`), and the
  ///   connection closes by itself, calling `onEnd`.
  func start(loop: Inbox<LoopCommand>, options: DaemonOptions) throws(ThreadStartError) {
    try? socket.setWriteTimeout(options.writeTimeout)
    do {
      try DetachedThread.start(name: "client-write") { [self] in writeLoop() }
    } catch {
      // Nothing will write: the two small frames fit in the socket's buffer,
      // and stay readable after the close.
      let reason = Self.refusal(error)
      try? socket.write(
        MessageCodec.frame(ServerMessage.error(id: nil, code: .tooManyClients, message: reason))
          + MessageCodec.frame(ServerMessage.goodbye(reason: reason)))
      socket.close()
      onEnd()
      throw error
    }
    do {
      try DetachedThread.start(name: "client-read") { [self] in
        readLoop(loop: loop, options: options)
        loop.post(.disconnected(connectionID: id))
        // The loop lets a client it welcomed go once it has answered what
        // was read, if the client closed only its writing half and can
        // still read them.
        if !isGreeted || isClosing || peerHasHungUp { outbox.finish() }
        threadEnded()
      }
    } catch {
      closeWithError(id: nil, .tooManyClients, Self.refusal(error))
      threadEnded()  // The reader's part: the writer closes once it has said why.
      throw error
    }
  }

  private static func refusal(_ error: ThreadStartError) -> String {
    "\(DaemonName.current) cannot serve another client now: \(error); try again later"
  }

  private func writeLoop() {
    while let frame = outbox.next(upTo: Outbox.writeBatchBytes) {
      do {
        try socket.write(frame)
      } catch {
        break
      }
    }
    markClosing()
    outbox.finish()
    // Nothing is written through once this thread may close the socket.
    outbox.retire()
    // Wakes the reader, whether the peer is gone or the daemon said goodbye.
    shutdownNow()
    threadEnded()
  }

  /// Sends an error and a goodbye (even past the outbox's limit, after
  /// dropping queued diffs), reads nothing more, and closes once they are
  /// written — or once the client has failed to read for the write timeout.
  func closeWithError(id requestID: Int?, _ code: WireErrorCode, _ message: String) {
    markClosing()
    outbox.dropDroppable()
    outbox.offerAnswer(MessageCodec.frame(ServerMessage.error(id: requestID, code: code, message: message)))
    outbox.offerAnswer(MessageCodec.frame(ServerMessage.goodbye(reason: message)))
    outbox.finish()
  }

  /// Says goodbye after what is queued, and closes once it is written — or
  /// once the client has failed to read for the write timeout. For a clean
  /// stop; nothing is said to a connection already closing.
  func sayGoodbye(_ reason: String) {
    outbox.offerAnswer(MessageCodec.frame(ServerMessage.goodbye(reason: reason)))
    outbox.finish()
  }

  /// Closes with a notice and a goodbye, for a subscriber that fell behind.
  func closeWithNotice(_ notice: ServerMessage.Notice, _ message: String) {
    markClosing()
    outbox.dropDroppable()
    outbox.offerAnswer(MessageCodec.frame(ServerMessage.notice(notice, message: message)))
    outbox.offerAnswer(MessageCodec.frame(ServerMessage.goodbye(reason: message)))
    outbox.finish()
  }

  /// Whether the connection is on its way out; the loop ignores its messages.
  var isClosing: Bool { closing.load(ordering: .acquiring) }

  /// Whether the client has said a valid `hello`.
  var isGreeted: Bool { saidHello.load(ordering: .acquiring) }

  private func markClosing() {
    closing.store(true, ordering: .releasing)
    credits.signal()  // Wakes a reader waiting for credit, so it can leave.
  }

  /// Shuts the socket down now (both directions), unless it is already closed.
  private func shutdownNow() {
    lifecycle.withLock { state in
      if !state.isClosed { socket.shutdown() }
    }
  }

  private func threadEnded() {
    let last = lifecycle.withLock { state -> Bool in
      state.threadsRunning -= 1
      guard state.threadsRunning == 0 else { return false }
      socket.close()
      state.isClosed = true
      return true
    }
    if last { onEnd() }
  }

  private func readLoop(loop: Inbox<LoopCommand>, options: DaemonOptions) {
    var decoder = FrameDecoder(maximum: options.maximumFrame)
    var greeted = false
    let handshakeDeadline = ContinuousClock.now + options.handshakeTimeout
    while !isClosing {
      // A deadline for the whole handshake, not per read: a client trickling
      // one byte at a time is still timed out.
      var timeout: Duration?
      if !greeted {
        let remaining = handshakeDeadline - ContinuousClock.now
        guard remaining > .zero else {
          closeWithError(id: nil, .timeout, "no hello within \(options.handshakeTimeout); closing")
          return
        }
        timeout = remaining
      }
      let bytes: [UInt8]
      do {
        bytes = try socket.read(timeout: timeout)
      } catch {
        if !greeted && (error.errno == EAGAIN || error.errno == EWOULDBLOCK) { continue }
        return
      }
      if bytes.isEmpty {
        do throws(FrameError) {
          try decoder.finish()
        } catch {
          Log.info("connection \(id): \(error)")
        }
        return
      }
      decoder.append(bytes)
      while !isClosing {
        let payload: [UInt8]
        do {
          guard let next = try decoder.nextFrame() else { break }
          payload = next
        } catch {
          closeWithError(id: nil, .frame, "\(error); closing the connection")
          return
        }
        MemoryRelease.noteFrame(bytes: payload.count)
        let parsed = Self.parse(payload)
        if !greeted {
          switch parsed {
          case .success(.hello(let version, let client)):
            do throws(MessageError) {
              try ClientLimits.check(clientName: client)
            } catch {
              closeWithError(id: nil, error.code, error.message)
              return
            }
            guard version == ProtocolVersion.current else {
              closeWithError(
                id: nil, .unsupportedVersion,
                "this daemon speaks protocol \(ProtocolVersion.current); the client asked for \(version)")
              return
            }
            greeted = true
            saidHello.store(true, ordering: .releasing)
            loop.post(.connected(self, client: client))
          case .success(let other):
            closeWithError(id: other.id, .handshake, "the first message must be 'hello' with the protocol version")
            return
          case .failure(let failure):
            closeWithError(
              id: nil, .handshake,
              "the first message must be 'hello' with the protocol version; \(failure.error.message)")
            return
          }
          continue
        }
        // Everything else is answered by the loop, in order with the rest.
        guard waitForCredit() else { return }
        switch parsed {
        case .success(let message): loop.post(.message(connectionID: id, message))
        case .failure(let failure): loop.post(.invalid(connectionID: id, requestID: failure.requestID, failure.error))
        }
      }
    }
  }

  /// Waits until the loop has room for another message. A client that has
  /// closed its end meanwhile is let go, so that it does not hold its slot
  /// for as long as the loop is busy.
  private func waitForCredit() -> Bool {
    while credits.wait(timeout: .now() + .milliseconds(200)) == .timedOut {
      if isClosing { return false }
      if peerHasHungUp {
        markClosing()
        return false
      }
    }
    return !isClosing
  }

  /// Whether the client has closed its end entirely, not only its writing
  /// half: nothing written to it can be read any more.
  private var peerHasHungUp: Bool {
    var entry = pollfd(fd: socket.descriptor, events: 0, revents: 0)
    return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLHUP) != 0
  }

  private struct ParseFailure: Error {
    let requestID: Int?
    let error: MessageError
  }

  private static func parse(_ payload: [UInt8]) -> Result<ClientMessage, ParseFailure> {
    let json: JSONValue
    do {
      json = try MessageCodec.parse(payload, maximumDepth: ClientLimits.depth)
    } catch {
      return .failure(ParseFailure(requestID: nil, error: error))
    }
    do {
      let message = try ClientMessage(json: json)
      if case .send = message { try ClientLimits.check(sendBytes: payload.count) }
      return .success(message)
    } catch {
      var requestID: Int?
      if case .object(let object) = json, case .int(let id)? = object["id"] { requestID = id }
      return .failure(ParseFailure(requestID: requestID, error: error))
    }
  }
}
