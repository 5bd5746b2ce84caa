import ComposableCore
import Glibc
import JSON
import Platform
import Wire

/// One client connection, served by the store loop's thread: the bytes read
/// and not yet cut into frames, the handshake, and the ``Outbox`` of what
/// waits to be written. ``ConnectionServer`` reads and writes it when the
/// socket is ready; nothing here waits.
///
/// Bounds, so one client can never hurt the others: a connection must say
/// `hello` within the handshake timeout, counted from `accept` (or sooner
/// when newer connections need the room); its socket is not read while the
/// loop has 64 of its requests waiting (``ConnectionServer``); a client that
/// leaves its answers unread for the write timeout (`--write-timeout`) is
/// disconnected.
final class Connection {
  /// Requests read and not yet handled, at most, before the socket is no
  /// longer read.
  static let creditLimit = 64

  let id: Int
  let socket: UnixSocket
  let outbox: Outbox
  /// When it was accepted: the handshake's deadline counts from here.
  let acceptedAt = ContinuousClock.now
  var decoder: FrameDecoder
  /// Whether the client has said a valid `hello`.
  private(set) var isGreeted = false
  /// Whether the connection is on its way out: nothing more is read, and it
  /// closes once its outbox is written.
  private(set) var isClosing = false
  /// Whether the client closed its writing half (a read returned 0).
  var hasStoppedSending = false
  /// Whether the socket is closed: the connection is gone.
  var isClosed = false
  /// What the socket is watched for now, to change it only when it must.
  var watching: EventPoll.Interest = []
  /// The token its `hello` must give: a connection to the TCP listener's.
  var requiredToken: String?
  /// The number of the store its `hello` named, among the loop's open
  /// stores (0, the default store, until then).
  var store = 0
  /// The path of the last `send` read from it (``SendScanner``).
  private var recentPath = ""

  init(id: Int, socket: UnixSocket, outboxLimit: Int, maximumFrame: UInt32, gate: HoldGate?) {
    self.id = id
    self.socket = socket
    self.outbox = Outbox(limit: outboxLimit, writingTo: socket.descriptor, gate: gate)
    self.decoder = FrameDecoder(maximum: maximumFrame)
  }

  /// The client said `hello`.
  func greeted() {
    isGreeted = true
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

  func markClosing() {
    isClosing = true
  }

  /// A frame read, as the loop takes it.
  enum Parsed {
    case message(ClientMessage)
    case invalid(requestID: Int?, MessageError)
  }

  /// What a frame's payload says.
  func parse(_ payload: UnsafeRawBufferPointer) -> Parsed {
    if let send = SendScanner.send(from: payload, recentPath: &recentPath) { return .message(send) }
    return Self.parseInFull(Array(payload))
  }

  /// What a payload the ``SendScanner`` does not read says.
  private static func parseInFull(_ payload: [UInt8]) -> Parsed {
    let json: JSONValue
    do {
      json = try MessageCodec.parse(payload, maximumDepth: ClientLimits.depth)
    } catch {
      return .invalid(requestID: nil, error)
    }
    do {
      let message = try ClientMessage(json: json)
      if case .send = message { try ClientLimits.check(sendBytes: payload.count) }
      return .message(message)
    } catch {
      var requestID: Int?
      if case .object(let object) = json, case .int(let id)? = object["id"] { requestID = id }
      return .invalid(requestID: requestID, error)
    }
  }
}
