import Foundation
import Glibc

/// One run of the benchmark: the options, the table being filled, and the
/// temporary directory every daemon and Redis of the run lives in.
final class Benchmark {
  let options: BenchOptions
  let report: Report
  let root: String
  private var directories = 0
  /// Figures later rows are judged against, once measured.
  var pingPongP50: Double?
  /// c's actions/s with the journal local and `--fsync always`, 1 and 50
  /// clients: r's reference.
  var localFsyncFigures: (one: Double, fifty: Double)?

  init(options: BenchOptions) throws(BenchError) {
    self.options = options
    report = Report(judged: !options.smoke)
    // Short: socket paths must fit in 108 bytes.
    root = options.directory + "/sdb-\(getpid())"
    guard mkdir(root, 0o700) == 0 || errno == EEXIST else {
      throw BenchError("cannot create \(root): \(String(cString: strerror(errno)))")
    }
    let daemon = options.fuzz ? options.fuzzDaemon : "storedaemon"
    for binary in [daemon, "effectworker", "effectworker-network"]
    where access(options.binaries + "/" + binary, X_OK) != 0 {
      throw BenchError(
        "no \(binary) in \(options.binaries); build in release mode first (swift build -c release) or pass --binaries")
    }
  }

  /// A fresh directory for one daemon or Redis.
  func newDirectory(_ name: String) -> String {
    directories += 1
    let path = root + "/\(directories)\(name)"
    mkdir(path, 0o700)
    return path
  }

  /// A daemon in a fresh directory (or in `directory`, whose state it uses).
  func daemon(_ name: String, fsync: String, arguments: [String] = [], directory: String? = nil) throws(BenchError)
    -> DaemonUnderTest
  {
    try DaemonUnderTest(
      binaries: options.binaries, directory: directory ?? newDirectory(name), fsync: fsync, arguments: arguments)
  }

  /// A Redis in a fresh directory, or nil when the run has none.
  func redis(appendfsyncAlways: Bool = false) throws(BenchError) -> RedisServer? {
    guard let binary = options.redisServer else { return nil }
    return try RedisServer(binary: binary, directory: newDirectory("redis"), appendfsyncAlways: appendfsyncAlways)
  }

  /// Runs one figure's measurements; a failure is reported in the table and
  /// the run goes on.
  func measure(_ figure: String, _ body: () throws(BenchError) -> Void) {
    guard options.wants(figure) else { return }
    do {
      try body()
    } catch {
      report.failed(figure, error)
    }
  }

  func removeDirectories() {
    try? FileManager.default.removeItem(atPath: root)
  }

  /// A check for storedaemon load runs: every reply must be an `ack`.
  static func checkAck(_ buffer: [UInt8], _ start: Int, _ end: Int) -> String? {
    let summary = FrameSummary(buffer, start + 4, end)
    guard summary.type != "ack" else { return nil }
    return "storedaemon answered \(String(decoding: buffer[(start + 4)..<end], as: UTF8.self))"
  }
}
