import Glibc
import Testing
import Wire

/// A client may send its requests and close its writing half
/// (`shutdown(SHUT_WR)`), as `nc -N` does: what the daemon read is applied
/// and answered before it closes the connection.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct HalfClosedClientTests {
  @Test func requestsSentBeforeShuttingTheWritingHalfAreAppliedAndAnswered() throws {
    let daemon = try LoopDaemon()
    for round in 1...5 {
      let raw = try RawConnection(daemon)
      var requests = try FrameEncoder.frame(Array(#"{"type":"hello","protocol":1}"#.utf8))
      for id in 1...3 {
        requests += try FrameEncoder.frame(
          Array(#"{"type":"send","id":\#(id),"path":"counter.incrementButtonTapped"}"#.utf8))
      }
      requests += try FrameEncoder.frame(Array(#"{"type":"get","id":4,"path":"/counter/count"}"#.utf8))
      try raw.write(requests)
      shutdown(raw.socket.descriptor, Int32(SHUT_WR))
      let messages = try raw.readUntilClosed()
      let acknowledged = messages.filter { if case .ack = $0 { true } else { false } }.count
      #expect(acknowledged == 3, "round \(round): \(messages)")
      #expect(
        messages.contains(.state(id: 4, version: UInt64(round * 3), path: "/counter/count", value: .int(round * 3))))
    }
    #expect(try daemon.client().get(path: "/counter/count").value == .int(15))
  }
}
