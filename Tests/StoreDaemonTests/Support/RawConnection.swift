import ComposableCore
import Glibc
import Platform
import Wire

/// A connection that speaks raw bytes, for hostile-input tests, and reads the
/// daemon's answers as messages.
final class RawConnection {
  let socket: UnixSocket
  private var decoder = FrameDecoder()

  init(_ daemon: some ServingDaemon) throws {
    socket = try daemon.rawSocket()
  }

  deinit { socket.close() }

  func write(_ bytes: [UInt8]) throws { try socket.write(bytes) }

  func send(_ json: String) throws { try socket.write(FrameEncoder.frame(Array(json.utf8))) }

  func hello() throws {
    try send(#"{"type":"hello","protocol":1,"client":"raw"}"#)
    guard case .welcome = try read() else { throw DaemonTestError("expected welcome") }
  }

  /// The next message, or nil when the daemon closed the connection.
  func read() throws -> ServerMessage? {
    try readPayload().map { try ServerMessage(json: MessageCodec.parse($0)) }
  }

  /// The next frame's payload, as the daemon wrote it, or nil when the
  /// daemon closed the connection.
  func readPayload() throws -> [UInt8]? {
    while true {
      if let payload = try decoder.nextFrame() { return payload }
      let bytes = try socket.read(timeout: eventTimeout)
      if bytes.isEmpty { return nil }
      decoder.append(bytes)
    }
  }

  /// Reads until the daemon closes; returns everything it said.
  func readUntilClosed() throws -> [ServerMessage] {
    var messages: [ServerMessage] = []
    while let message = try read() { messages.append(message) }
    return messages
  }
}
