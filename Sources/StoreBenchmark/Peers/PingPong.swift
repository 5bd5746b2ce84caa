import Glibc
import Platform

/// The floor: one byte sent back and forth between this process and a child
/// process over an AF_UNIX stream socket, the least any request/reply between
/// two processes on this machine can take.
enum PingPong {
  /// The argument that makes the benchmark binary the echoing peer.
  static let peerFlag = "--pingpong-peer"

  /// The peer's loop: echo every byte on standard input back to it, until end of file.
  static func runPeer() -> Never {
    var byte: UInt8 = 0
    while read(0, &byte, 1) == 1 {
      guard write(0, &byte, 1) == 1 else { break }
    }
    exit(0)
  }

  /// Round trips for `duration` seconds; returns each one's time in seconds.
  static func measure(duration: Double, log: String) throws(BenchError) -> [Double] {
    var pair: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
      throw BenchError("socketpair: \(String(cString: strerror(errno)))")
    }
    defer { close(pair[0]) }
    let peer = try Child([selfExecutable(), peerFlag], output: log, input: pair[1])
    close(pair[1])
    defer { peer.stop(SIGKILL) }
    var samples: [Double] = []
    samples.reserveCapacity(1 << 20)
    var byte: UInt8 = 1
    let end = MonotonicClock.now() + UInt64(duration * 1e9)
    while true {
      let start = MonotonicClock.now()
      guard start < end else { break }
      guard write(pair[0], &byte, 1) == 1, read(pair[0], &byte, 1) == 1 else {
        throw BenchError("the ping-pong peer stopped answering")
      }
      samples.append(MonotonicClock.seconds(from: start, to: MonotonicClock.now()))
    }
    return samples
  }

  static func selfExecutable() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return count > 0
      ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
  }
}
