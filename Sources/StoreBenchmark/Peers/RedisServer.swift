import Foundation
import Glibc
import Platform

/// A redis-server the benchmark starts on a Unix socket in a directory of its
/// own, with no TCP port and no snapshots, and stops at the end: the peer
/// every ratio is taken against.
final class RedisServer {
  let socketPath: String
  private let child: Child

  /// `appendfsyncAlways` turns on the append-only file with an fsync per
  /// write (batched across the clients of one event-loop turn).
  init(binary: String, directory: String, appendfsyncAlways: Bool) throws(BenchError) {
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    socketPath = directory + "/r.sock"
    var arguments = [
      binary, "--port", "0", "--unixsocket", socketPath, "--unixsocketperm", "700", "--save", "", "--dir", directory,
      "--daemonize", "no", "--maxclients", "1000",
    ]
    arguments += appendfsyncAlways ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]
    child = try Child(arguments, output: directory + "/redis.log")
    let deadline = MonotonicClock.now() + 10_000_000_000
    while MonotonicClock.now() < deadline {
      if let socket = try? UnixSocket.connectForBench(socketPath) {
        defer { socket.close() }
        if (try? Self.command(socket, ["PING"])) == Array("+PONG\r\n".utf8) { return }
      }
      usleep(5_000)
    }
    child.stop(SIGKILL)
    throw BenchError("redis-server did not answer PING within 10 s; its log: \(directory)/redis.log")
  }

  deinit {
    child.stop(SIGTERM)
  }

  /// Finds redis-server on the PATH.
  static func find() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") + ["/usr/sbin", "/usr/bin"] {
      let candidate = "\(directory)/redis-server"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  func connect() throws(BenchError) -> UnixSocket {
    try UnixSocket.connectForBench(socketPath)
  }

  /// A command in RESP, as a client sends it.
  static func encode(_ arguments: [String]) -> [UInt8] {
    var text = "*\(arguments.count)\r\n"
    for argument in arguments { text += "$\(argument.utf8.count)\r\n\(argument)\r\n" }
    return Array(text.utf8)
  }

  /// Sends one command on a blocking connection and returns its whole reply.
  @discardableResult
  static func command(_ socket: UnixSocket, _ arguments: [String]) throws(BenchError) -> [UInt8] {
    try socket.writeAll(encode(arguments))
    var buffer: [UInt8] = []
    var scratch = [UInt8](repeating: 0, count: 4096)
    while Framing.resp.replyLength(in: buffer, at: 0) == nil {
      guard Readiness.readable(socket.descriptor, milliseconds: 5000) else {
        throw BenchError("redis did not answer \(arguments[0])")
      }
      let count = read(socket.descriptor, &scratch, scratch.count)
      guard count > 0 else { throw BenchError("redis closed the connection") }
      buffer += scratch[..<count]
    }
    return buffer
  }

  /// A check for load runs: an error reply (`-ERR …`) stops the run.
  static func check(_ buffer: [UInt8], _ start: Int, _ end: Int) -> String? {
    buffer[start] == UInt8(ascii: "-") ? "redis: \(String(decoding: buffer[start..<end], as: UTF8.self))" : nil
  }
}
