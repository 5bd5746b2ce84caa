import Foundation
import Glibc
import TestSupport

/// A real `tcaweb` process for a test, serving on a free port of 127.0.0.1
/// for the daemon at `socket`; stopped when the test lets go of it.
final class WebClientProcess {
  let process = Process()
  let port: UInt16
  /// Where its metrics are, when started with `--metrics 127.0.0.1:0`.
  let metricsPort: UInt16?

  init(socket: String, arguments: [String] = []) throws {
    process.executableURL = DaemonProcess.productsDirectory.appendingPathComponent("tcaweb")
    process.arguments = ["--socket", socket, "--listen", "127.0.0.1:0"] + arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    // It says where it serves once it does, and then where its metrics are.
    let lines = arguments.contains("--metrics") ? 2 : 1
    var said = Data()
    let reader = output.fileHandleForReading
    while said.filter({ $0 == UInt8(ascii: "\n") }).count < lines {
      let chunk = reader.availableData
      guard !chunk.isEmpty else { throw DaemonTestError("tcaweb exited before serving") }
      said.append(chunk)
    }
    let text = String(decoding: said, as: UTF8.self)
    func number(after marker: String) -> UInt16? {
      guard let range = text.range(of: marker) else { return nil }
      return UInt16(text[range.upperBound...].prefix { $0.isNumber })
    }
    guard let port = number(after: "serving http://127.0.0.1:") else {
      throw DaemonTestError("tcaweb said '\(text)', not where it serves")
    }
    self.port = port
    metricsPort = number(after: "serving metrics on http://127.0.0.1:")
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGTERM)
      process.waitUntilExit()
    }
  }

  /// A new connection to it.
  func connect() throws -> RawHTTPClient { try RawHTTPClient(port: port) }

  /// The answer to one request on a new connection: `method` `path` with
  /// `headers` (a `Host` naming this server unless given) and `body`.
  func request(
    _ method: String, _ path: String, headers: [String: String] = [:], body: String = ""
  ) throws -> RawHTTPClient.Response {
    var fields = ["Host": "127.0.0.1:\(port)", "Connection": "close"].merging(headers) { $1 }
    if !body.isEmpty || method == "POST" { fields["Content-Length"] = String(body.utf8.count) }
    let head = "\(method) \(path) HTTP/1.1\r\n" + fields.map { "\($0): \($1)\r\n" }.joined() + "\r\n"
    let client = try connect()
    try client.send(head + body)
    guard let response = try client.readResponse() else { throw DaemonTestError("tcaweb closed without answering") }
    return response
  }

  /// The answer to a client message the page would post.
  func post(_ json: String, headers: [String: String] = [:]) throws -> RawHTTPClient.Response {
    try request(
      "POST", "/api/request", headers: ["Content-Type": "application/json"].merging(headers) { $1 }, body: json)
  }

  /// Opens the event stream at `path` with `headers`; returns the
  /// connection, its head read.
  func events(_ path: String = "/events", headers: [String: String] = [:]) throws -> RawHTTPClient {
    let client = try connect()
    let fields = ["Host": "127.0.0.1:\(port)"].merging(headers) { $1 }
    try client.send("GET \(path) HTTP/1.1\r\n" + fields.map { "\($0): \($1)\r\n" }.joined() + "\r\n")
    guard let head = try client.readResponse(toHead: true), head.status == 200 else {
      throw DaemonTestError("the event stream did not open")
    }
    return client
  }
}
