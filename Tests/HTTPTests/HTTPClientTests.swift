import Glibc
import HTTP
import Platform
import Synchronization
import Testing

/// The client against real TCP servers on 127.0.0.1: the HTTP module's
/// own, and one that writes a chunked answer as etcd's gateway does.
@Suite struct HTTPClientTests {
  /// A server that answers each connection's first request with `answer`,
  /// verbatim, then closes; returns its port.
  private func rawServer(answering answer: String) throws -> UInt16 {
    let (listener, port) = try SocketCalls.listenOnLoopback()
    try DetachedThread.start(name: "raw server") {
      defer { close(listener) }
      guard let connection = SocketCalls.accept(from: listener) else { return }
      var request: [UInt8] = []
      while HTTPRequestParser.headEnd(in: request) == nil,
        SocketCalls.receive(from: connection, appendingTo: &request) > 0
      {}
      _ = SocketCalls.sendAll(Array(answer.utf8), to: connection)
      SocketCalls.closeGracefully(connection, stopFD: -1)
    }
    return port
  }

  @Test func anAnswerWithALengthAndKeptAliveConnections() throws {
    let server = try HTTPServer(host: "127.0.0.1", port: 0) { request in
      .bytes(Array("got \(request.method) \(request.path) \(request.body.count)".utf8), contentType: "text/plain")
    }
    try server.start()
    defer { server.shutDown() }
    let client = try HTTPClientConnection(host: "127.0.0.1", port: server.port, timeout: .seconds(30))
    for size in [0, 10, 60_000] {
      let response = try client.request(
        "POST", "/x", body: Array(repeating: 65, count: size), until: .now + .seconds(60))
      #expect(response.status == 200)
      #expect(String(decoding: response.body, as: UTF8.self) == "got POST /x \(size)")
    }
  }

  @Test func aChunkedAnswerIsReadWholeOrLineByLine() throws {
    let chunked =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
      + "7\r\n{\"a\":1}\r\n" + "9\r\n\n{\"b\":2}\n\r\n" + "3;ext=1\r\nxyz\r\n" + "0\r\nTrailer: t\r\n\r\n"
    let whole = try HTTPClientConnection(
      host: "127.0.0.1", port: try rawServer(answering: chunked), timeout: .seconds(30))
    let response = try whole.request("POST", "/v3/kv/range", until: .now + .seconds(60))
    #expect(String(decoding: response.body, as: UTF8.self) == "{\"a\":1}\n{\"b\":2}\nxyz")

    let streamed = try HTTPClientConnection(
      host: "127.0.0.1", port: try rawServer(answering: chunked), timeout: .seconds(30))
    let head = try streamed.openStream("POST", "/v3/watch", until: .now + .seconds(60))
    #expect(head.status == 200)
    var lines: [String] = []
    while let line = try? streamed.nextLine(until: .now + .seconds(60)) {
      lines.append(String(decoding: line, as: UTF8.self))
    }
    #expect(lines == ["{\"a\":1}", "{\"b\":2}"])
  }

  @Test func aServerThatIsNotThereOrSaysNothingFailsWithWhy() throws {
    let (listener, port) = try SocketCalls.listenOnLoopback()
    close(listener)
    #expect {
      _ = try HTTPClientConnection(host: "127.0.0.1", port: port, timeout: .seconds(30))
    } throws: { error in
      guard case .connect(let socketError) = error as? HTTPClientError else { return false }
      return socketError.errno == ECONNREFUSED
    }
    // Accepts (the kernel's queue) but never answers: the deadline, set here, ends the wait.
    let (silent, silentPort) = try SocketCalls.listenOnLoopback()
    defer { close(silent) }
    let client = try HTTPClientConnection(host: "127.0.0.1", port: silentPort, timeout: .seconds(30))
    #expect {
      _ = try client.request("POST", "/", until: .now + .milliseconds(200))
    } throws: { error in
      guard case .timedOut = error as? HTTPClientError else { return false }
      return true
    }
    let garbage = try HTTPClientConnection(
      host: "127.0.0.1", port: try rawServer(answering: "SSH-2.0-OpenSSH\r\n\r\n"), timeout: .seconds(30))
    #expect {
      _ = try garbage.request("GET", "/", until: .now + .seconds(60))
    } throws: { error in
      guard case .malformed = error as? HTTPClientError else { return false }
      return true
    }
  }
}
