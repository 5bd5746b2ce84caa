import Foundation
import Glibc
import Platform

/// A real etcd cluster for a test: Debian's `etcd` (package `etcd-server`,
/// which `.ci/run` installs), `members` processes on 127.0.0.1 at ports
/// the kernel picked free, each with its data in a directory of the
/// cluster's own. Every member is killed when the test lets go of it.
public final class EtcdCluster {
  /// Where Debian installs it.
  public static let executable = "/usr/bin/etcd"

  public static var isInstalled: Bool { access(executable, X_OK) == 0 }

  public struct Member {
    public let name: String
    public let clientPort: UInt16
    public let peerPort: UInt16
    public fileprivate(set) var process: Process?
  }

  public private(set) var members: [Member]
  public let directory: TemporaryDirectory

  /// Starts `count` members and waits until the cluster has a leader.
  ///
  /// A port the kernel called free may be taken by another test before a
  /// member binds it, and that member exits: the cluster is then started
  /// again from nothing on other ports, up to three times.
  public init(members count: Int = 3) throws {
    directory = try TemporaryDirectory(prefix: "etcd-test")
    members = []
    try startServing(count)
  }

  /// Starts `count` members on ports picked now until the cluster serves.
  private func startServing(_ count: Int) throws {
    var attempt = 1
    while true {
      members = try (1...count).map { index in
        Member(name: "m\(index)", clientPort: try Self.freePort(), peerPort: try Self.freePort())
      }
      for index in members.indices { try start(index, initial: true) }
      do {
        try waitUntilServing()
        return
      } catch {
        guard error.memberExited && attempt < 3 else { throw error }
      }
      for index in members.indices {
        kill(index)
        try? FileManager.default.removeItem(atPath: directory.appending(members[index].name))
      }
      attempt += 1
    }
  }

  deinit {
    for member in members {
      if let process = member.process, process.isRunning {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
      }
    }
  }

  /// The members' client addresses, `127.0.0.1:PORT`.
  public var clientAddresses: [String] { members.map { "127.0.0.1:\($0.clientPort)" } }

  /// `etcd://127.0.0.1:P1,127.0.0.1:P2,…`
  public var url: String { "etcd://" + clientAddresses.joined(separator: ",") }

  /// Kills member `index` with SIGKILL.
  public func kill(_ index: Int) {
    guard let process = members[index].process, process.isRunning else { return }
    Glibc.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    members[index].process = nil
  }

  /// Starts member `index` again, on its data.
  public func restart(_ index: Int) throws {
    try start(index, initial: false)
  }

  private func start(_ index: Int, initial: Bool) throws {
    let member = members[index]
    let cluster = members.map { "\($0.name)=http://127.0.0.1:\($0.peerPort)" }.joined(separator: ",")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.executable)
    process.arguments = [
      "--name", member.name, "--data-dir", directory.appending(member.name),
      "--listen-client-urls", "http://127.0.0.1:\(member.clientPort)",
      "--advertise-client-urls", "http://127.0.0.1:\(member.clientPort)",
      "--listen-peer-urls", "http://127.0.0.1:\(member.peerPort)",
      "--initial-advertise-peer-urls", "http://127.0.0.1:\(member.peerPort)",
      "--initial-cluster", cluster, "--initial-cluster-state", initial ? "new" : "existing",
      "--initial-cluster-token", "test", "--logger", "zap", "--log-outputs", "stderr",
    ]
    // A file, not a pipe: a pipe nobody drains would stall a chatty member.
    let log = directory.appending("\(member.name).log")
    if !FileManager.default.fileExists(atPath: log) { _ = FileManager.default.createFile(atPath: log, contents: nil) }
    let handle = FileHandle(forWritingAtPath: log)
    handle?.seekToEndOfFile()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = handle
    try process.run()
    members[index].process = process
  }

  /// Waits until a member answers a write, which needs a leader and a
  /// majority: up to five minutes, generous for a busy machine, or until a
  /// member has exited.
  private func waitUntilServing() throws(EtcdClusterError) {
    let deadline = ContinuousClock.now + .seconds(300)
    while ContinuousClock.now < deadline {
      if let exited = members.first(where: { $0.process?.isRunning != true }) {
        throw EtcdClusterError(
          description: "etcd member \(exited.name) exited before the cluster served: \(logTail(of: exited))",
          memberExited: true)
      }
      for member in members {
        guard let fd = try? SocketCalls.connect(host: "127.0.0.1", port: member.clientPort, timeout: .seconds(1))
        else { continue }
        let body = #"{"key":"cmVhZHk=","value":"MQ=="}"#
        let request =
          "POST /v3/kv/put HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        var answer: [UInt8] = []
        if SocketCalls.sendAll(Array(request.utf8), to: fd, orStop: -1, timeout: .seconds(5)) {
          while case .ready = SocketCalls.wait(for: Int16(POLLIN), on: fd, orStop: -1, timeout: .seconds(5)),
            SocketCalls.receive(from: fd, appendingTo: &answer) > 0
          {}
        }
        close(fd)
        if String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200") { return }
      }
      usleep(100_000)
    }
    throw EtcdClusterError(
      description: "the etcd cluster did not elect a leader within five minutes; the members' logs end: "
        + members.map { "\($0.name): \(logTail(of: $0))" }.joined(separator: "; "))
  }

  /// The last lines of `member`'s log, for a failure's message (the
  /// directory is removed with the cluster).
  private func logTail(of member: Member) -> String {
    let text = (try? String(contentsOfFile: directory.appending("\(member.name).log"), encoding: .utf8)) ?? ""
    return String(text.suffix(1200))
  }

  /// A port nothing listens on now (the kernel's pick for a socket bound
  /// and closed at once).
  public static func freePort() throws -> UInt16 {
    let (fd, port) = try SocketCalls.listenOnLoopback()
    close(fd)
    return port
  }
}

public struct EtcdClusterError: Error, CustomStringConvertible {
  public let description: String
  /// Whether a member exited before the cluster served (its port taken).
  public var memberExited = false
}
