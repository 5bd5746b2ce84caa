import Foundation
import Glibc
import Platform

/// An etcd cluster the benchmark starts for r: `members` processes of
/// Debian's etcd (package `etcd-server`) on 127.0.0.1 at ports the kernel
/// picked free, each with its data in a directory under the run's, killed
/// (SIGKILL) when the benchmark lets go of it or calls ``stop()``. etcd keeps
/// its defaults otherwise: every write is in its write-ahead log, synced,
/// before it answers.
final class EtcdCluster {
  /// Where Debian installs it.
  static let defaultExecutable = "/usr/bin/etcd"

  struct Member {
    let name: String
    let clientPort: UInt16
    let peerPort: UInt16
  }

  let members: [Member]
  let directory: String
  private var children: [Child] = []

  /// Starts `count` members in `directory` and waits (up to a minute) until
  /// the cluster has a leader and answers a write. A port taken between the
  /// kernel's pick and etcd's bind makes a member exit: the cluster is then
  /// started again on other ports, three times at most.
  init(binary: String, members count: Int, directory: String) throws(BenchError) {
    self.directory = directory
    var attempt = 0
    while true {
      attempt += 1
      var members: [Member] = []
      for index in 1...count {
        members.append(Member(name: "m\(index)", clientPort: try Self.freePort(), peerPort: try Self.freePort()))
      }
      let cluster = members.map { "\($0.name)=http://127.0.0.1:\($0.peerPort)" }.joined(separator: ",")
      var children: [Child] = []
      for member in members {
        children.append(
          try Child(
            [
              binary, "--name", member.name, "--data-dir", "\(directory)/\(member.name)-\(attempt)",
              "--listen-client-urls", "http://127.0.0.1:\(member.clientPort)",
              "--advertise-client-urls", "http://127.0.0.1:\(member.clientPort)",
              "--listen-peer-urls", "http://127.0.0.1:\(member.peerPort)",
              "--initial-advertise-peer-urls", "http://127.0.0.1:\(member.peerPort)",
              "--initial-cluster", cluster, "--initial-cluster-state", "new", "--initial-cluster-token", "bench",
              "--logger", "zap", "--log-outputs", "stderr", "--log-level", "warn",
            ], output: "\(directory)/\(member.name).log"))
      }
      switch Self.waitUntilServing(members, children) {
      case .serving:
        self.members = members
        self.children = children
        return
      case .memberExited where attempt < 3:
        for child in children { child.stop(SIGKILL) }
      case .memberExited:
        for child in children { child.stop(SIGKILL) }
        throw BenchError("an etcd member exited before the cluster served, \(attempt) times; its logs: \(directory)")
      case .timedOut:
        for child in children { child.stop(SIGKILL) }
        throw BenchError("etcd (\(count) member(s)) did not serve within a minute; its logs: \(directory)")
      }
    }
  }

  deinit {
    stop()
  }

  /// Kills every member.
  func stop() {
    for child in children { child.stop(SIGKILL) }
  }

  /// `etcd://127.0.0.1:P1,127.0.0.1:P2,…`, as `--replicate` takes it.
  var url: String { "etcd://" + members.map { "127.0.0.1:\($0.clientPort)" }.joined(separator: ",") }

  /// Finds etcd where Debian installs it, else on the PATH.
  static func find() -> String? {
    if access(defaultExecutable, X_OK) == 0 { return defaultExecutable }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/etcd"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  private enum Outcome { case serving, memberExited, timedOut }

  /// Waits until a member answers a put (which needs a leader and a
  /// majority) through etcd's JSON gateway, or a member exits.
  private static func waitUntilServing(_ members: [Member], _ children: [Child]) -> Outcome {
    let deadline = MonotonicClock.now() + 60_000_000_000
    while MonotonicClock.now() < deadline {
      if children.contains(where: { !$0.isRunning }) { return .memberExited }
      for member in members where put(port: member.clientPort) { return .serving }
      usleep(50_000)
    }
    return .timedOut
  }

  /// The cluster's revision, which each write transaction moves by one
  /// (read from the first member that answers); nil if none does.
  func revision() -> Int? {
    for member in members {
      // A range of the key "\0": nothing, but the header says the revision.
      guard
        let answer = Self.request(
          "POST", port: member.clientPort, path: "/v3/kv/range", body: #"{"key":"AA=="}"#),
        let marker = answer.range(of: #""revision":""#)
      else { continue }
      return Int(answer[marker.upperBound...].prefix { $0.isNumber })
    }
    return nil
  }

  /// The mean time the first member took to sync its write-ahead log, in
  /// seconds, since it started (its `/metrics`); nil if it does not say.
  func walFsyncMean() -> Double? {
    guard let member = members.first,
      let answer = Self.request("GET", port: member.clientPort, path: "/metrics", body: "")
    else { return nil }
    func value(_ name: String) -> Double? {
      answer.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.dropFirst(name.count + 1)) }
    }
    guard let sum = value("etcd_disk_wal_fsync_duration_seconds_sum"),
      let count = value("etcd_disk_wal_fsync_duration_seconds_count"), count > 0
    else { return nil }
    return sum / count
  }

  /// `PUT bench-ready = 1`; whether etcd answered 200.
  private static func put(port: UInt16) -> Bool {
    request("POST", port: port, path: "/v3/kv/put", body: #"{"key":"YmVuY2gtcmVhZHk=","value":"MQ=="}"#) != nil
  }

  /// A request to etcd (its JSON gateway, its metrics) on a connection of
  /// its own; the answer (head and body), or nil unless it is a 200.
  private static func request(_ method: String, port: UInt16, path: String, body: String) -> String? {
    guard let fd = try? SocketCalls.connect(host: "127.0.0.1", port: port, timeout: .seconds(1)) else {
      return nil
    }
    defer { close(fd) }
    let request =
      "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n"
      + "Connection: close\r\n\r\n\(body)"
    guard SocketCalls.sendAll(Array(request.utf8), to: fd, orStop: -1, timeout: .seconds(5)) else { return nil }
    var answer: [UInt8] = []
    while case .ready = SocketCalls.wait(for: Int16(POLLIN), on: fd, orStop: -1, timeout: .seconds(5)),
      SocketCalls.receive(from: fd, appendingTo: &answer) > 0
    {}
    let text = String(decoding: answer, as: UTF8.self)
    return text.hasPrefix("HTTP/1.1 200") ? text : nil
  }

  /// A port nothing listens on now (the kernel's pick for a socket bound and
  /// closed at once).
  private static func freePort() throws(BenchError) -> UInt16 {
    do {
      let (fd, port) = try SocketCalls.listenOnLoopback()
      close(fd)
      return port
    } catch {
      throw BenchError(error)
    }
  }
}
