import Platform

/// What a streaming handler writes its body through, on the connection's
/// thread: each write waits for room for at most the server's write
/// timeout, so a client that stops reading ends its stream instead of
/// holding the handler.
public struct HTTPStreamWriter: Sendable {
  let descriptor: Int32
  let stop: StopSignal
  let writeTimeout: Duration

  /// Writes `bytes`; `false` once the client is gone, has read nothing for
  /// the write timeout, or the server is stopping: the handler should then
  /// return.
  public func write(_ bytes: [UInt8]) -> Bool {
    !stop.isFired && SocketCalls.sendAll(bytes, to: descriptor, orStop: stop.readFD, timeout: writeTimeout)
  }

  /// Writes `event`, as ``write(_:)`` does.
  public func write(_ event: ServerSentEvent) -> Bool { write(event.bytes) }
}
