import ComposableCore
import Foundation
import Glibc
import TestSupport
import Testing

/// HTTPS goes through TLS: against a local `openssl s_server` whose
/// certificate nobody trusts, the worker refuses the connection. Runs where
/// the openssl tool is installed.
@Suite(.ownThreads, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")))
struct TLSTests {
  @Test func anUntrustedCertificateIsAConnectionFailureSayingWhy() throws {
    let directory = try TemporaryDirectory()
    let certificate = directory.appending("cert.pem")
    let key = directory.appending("key.pem")
    let generate = try Self.openssl(
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1", "-subj",
        "/CN=localhost",
      ],
      output: directory.appending("req.log"))
    generate.waitUntilExit()
    try #require(generate.terminationStatus == 0)

    let serverLog = directory.appending("s_server.log")
    let server = try Self.openssl(
      ["s_server", "-accept", "127.0.0.1:0", "-cert", certificate, "-key", key, "-www"], output: serverLog)
    defer {
      kill(server.processIdentifier, SIGKILL)
      server.waitUntilExit()
    }
    let port = try Self.waitForPort(in: serverLog, while: server)

    let worker = try SpawnedWorker(.network, in: directory)
    let reply = try worker.perform(.http(.get("https://127.0.0.1:\(port)/?token=SECRET")), id: 1)
    guard case .failure(let failure) = reply else {
      Issue.record("an untrusted certificate was accepted: \(reply)")
      return
    }
    #expect(failure.kind == .connection)
    #expect(failure.message.hasPrefix("GET https://127.0.0.1:\(port)/?…: "))
    #expect(failure.message.contains("certificate"))
    #expect(!failure.message.contains("SECRET"))
  }

  /// Runs openssl with standard output and error in a file.
  static func openssl(_ arguments: [String], output: String) throws -> Process {
    #expect(FileManager.default.createFile(atPath: output, contents: nil))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle(forWritingAtPath: output)
    process.standardError = process.standardOutput
    try process.run()
    return process
  }

  /// The port s_server prints as `ACCEPT 127.0.0.1:PORT`.
  static func waitForPort(in log: String, while server: Process) throws -> Int {
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline && server.isRunning {
      let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT ") }),
        let port = line.split(separator: ":").last.flatMap({ Int($0) })
      {
        return port
      }
      usleep(20_000)
    }
    throw WorkerTestError(
      "openssl s_server did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
  }
}
