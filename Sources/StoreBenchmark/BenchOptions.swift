import Foundation
import Platform

/// The benchmark's command line (`storedaemon-bench --help`).
struct BenchOptions {
  /// A second or so per figure, smaller fixtures, nothing judged: for CI,
  /// so the benchmark keeps working.
  var smoke = false
  /// Seconds each load runs.
  var seconds = 3.0
  /// Where storedaemon and its workers are: beside this program by default.
  var binaries = URL(fileURLWithPath: PingPong.selfExecutable()).deletingLastPathComponent().path
  var directory = "/tmp"
  var redisServer: String? = RedisServer.find()
  /// The etcd that r replicates the journal through (`/usr/bin/etcd`, else
  /// the PATH's); r is skipped without one.
  var etcd: String? = EtcdCluster.find()
  /// The figures to measure (`a`…`m`, `r`, `floor`); all when nil.
  var only: Set<String>?
  /// Also write the table, in Markdown, to this file.
  var markdownPath: String?
  var journalRecords = 1_000_000
  /// m: how many stores are opened for the memory figure, and how many
  /// are on disk for the start figure.
  var activeStores = 10_000
  var storesOnDisk = 100_000
  /// The records `storedaemon verify` replays (j).
  var verifyRecords = 100_000
  /// The idle clients connected at once (k).
  var idleClients = 10_000
  var collectionSizes = [10, 1_000, 100_000]
  /// Samples of the measures that each need a fresh daemon (start, restart).
  var samples = 5
  /// Loads of each throughput figure with a target (b, c), storedaemon's
  /// and Redis's in turn; each side's median is reported.
  var rounds = 3
  /// Run the fuzzer instead of the benchmark (`--fuzz`), for this long,
  /// from this many connections, from this seed.
  var fuzz = false
  var fuzzMinutes = 10.0
  var fuzzConnections = 4
  var fuzzSeed: UInt64 = 1
  /// The daemon the fuzz run starts from `binaries`: storedaemon, or a
  /// hosted app's (`todosd`).
  var fuzzDaemon = "storedaemon"
  /// Whether the fuzz run sends only the app's actions, valid and spoilt,
  /// without the hostile frames (`--actions-only`): the run a debug build
  /// gets in CI, where parsing a megabyte frame takes the loop longer than
  /// a well-behaved client may wait.
  var fuzzActionsOnly = false
  /// `--worker KIND=PATH` for the fuzzed daemon: where an app's own
  /// worker is, when not beside the daemon (Examples/Todos' export worker).
  var fuzzWorkers: [String] = []
  /// Whether the fuzz run's timing is reported without failing the run
  /// (`--no-latency-target`): CI's runs, on a debug build on a machine
  /// doing other work, check what the daemon answers; the release run
  /// checks how fast.
  var fuzzJudgesLatency = true

  static let usage = """
    usage: storedaemon-bench [--smoke] [--seconds S] [--only a,b,…] [--markdown FILE]
                             [--redis-server PATH | --no-redis] [--etcd PATH | --no-etcd]
                             [--binaries DIR] [--directory DIR]
           storedaemon-bench --fuzz [--minutes M] [--connections N] [--seed S] [--daemon NAME] [--actions-only]
                             [--worker KIND=PATH] [--no-latency-target]
                             [--binaries DIR] [--directory DIR]

    Measures storedaemon beside Redis and a raw AF_UNIX ping-pong, in one run,
    and prints each figure with its reference, their ratio and its target
    (docs/BENCHMARKS.md); r measures c's load again with the journal replicated
    through etcd. Build in release mode first: scripts/bench.sh does both.

      --smoke              about a second per figure, small fixtures, no target judged (CI)
      --seconds S          seconds each load runs (default 3)
      --only LIST          measure only these: floor, a, b, c, d, e, f, g, h, i, j, k, l, r
      --markdown FILE      also write the table to FILE
      --redis-server PATH  the redis-server to compare with (default: the one on PATH)
      --no-redis           measure without Redis: no ratios
      --etcd PATH          the etcd r starts (default /usr/bin/etcd, else the one on PATH)
      --no-etcd            skip r
      --binaries DIR       where storedaemon and its workers are (default: beside this program)
      --directory DIR      where the daemons' temporary directories go (default /tmp)

      --fuzz               instead: fuzzed frames, and valid and spoilt sends of every action the
                           daemon lists, from N connections each for M minutes while a
                           well-behaved client times its requests; then verify replays the
                           journal (docs/BENCHMARKS.md, "Fuzzing")
      --minutes M          how long the fuzz run lasts (default 10)
      --connections N      fuzzing connections (default 4)
      --seed S             the fuzz run's seed, to repeat one (default 1)
      --daemon NAME        the daemon to fuzz, from --binaries: storedaemon (default) or a hosted
                           app's, such as todosd
      --actions-only       send only the app's actions, valid and spoilt, not the hostile frames
      --worker KIND=PATH   passed on to the fuzzed daemon: an app's own worker (repeatable)
      --no-latency-target  report the client's p99 and the watchdog's longest gap without
                           failing the run on them (CI's debug runs)
    """

  /// The options `--help` lists.
  static let options: [ArgumentParser.Option] =
    ["--smoke", "--fuzz", "--actions-only", "--no-latency-target", "--no-redis", "--no-etcd"].map {
      ArgumentParser.Option($0)
    }
    + [ArgumentParser.Option("--help", "-h")]
    + [
      "--seconds", "--only", "--minutes", "--connections", "--seed", "--daemon", "--worker", "--markdown",
      "--redis-server",
      "--etcd",
      "--binaries", "--directory",
    ]
    .map { ArgumentParser.Option($0, value: "a value") }

  init(_ arguments: [String]) throws(BenchError) {
    var parser = ArgumentParser(arguments, options: Self.options)
    func next() throws(BenchError) -> ArgumentParser.Argument? {
      do { return try parser.next() } catch { throw BenchError("\(error)\n\n\(Self.usage)") }
    }
    while let argument = try next() {
      switch argument {
      case .option("--smoke", _):
        smoke = true
        seconds = 0.3
        journalRecords = 20_000
        activeStores = 200
        storesOnDisk = 1_000
        verifyRecords = 5_000
        idleClients = 200
        collectionSizes = [10, 1_000, 10_000]
        samples = 1
        rounds = 1
      case .option("--seconds", let text?):
        guard let parsed = Double(text), parsed > 0, parsed <= 600 else {
          throw BenchError(.invalidValue(text, for: "--seconds", expected: "a number of seconds between 0 and 600"))
        }
        seconds = parsed
      case .option("--only", let text?):
        let names = text.split(separator: ",").map(String.init)
        let known: Set = ["floor", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "r"]
        if let unknown = names.first(where: { !known.contains($0) }) {
          throw BenchError(
            .invalidValue(unknown, for: "--only", expected: "figures among \(known.sorted().joined(separator: ", "))"))
        }
        only = Set(names)
      case .option("--fuzz", _): fuzz = true
      case .option("--actions-only", _): fuzzActionsOnly = true
      case .option("--no-latency-target", _): fuzzJudgesLatency = false
      case .option("--worker", let text?): fuzzWorkers.append(text)
      case .option("--minutes", let text?):
        guard let parsed = Double(text), parsed > 0 else {
          throw BenchError(.invalidValue(text, for: "--minutes", expected: "a positive number"))
        }
        fuzzMinutes = parsed
      case .option("--connections", let text?):
        guard let parsed = Int(text), (1...64).contains(parsed) else {
          throw BenchError(.invalidValue(text, for: "--connections", expected: "a number from 1 to 64"))
        }
        fuzzConnections = parsed
      case .option("--daemon", let text?):
        guard !text.isEmpty, !text.contains("/") else {
          throw BenchError(.invalidValue(text, for: "--daemon", expected: "an executable's name in --binaries"))
        }
        fuzzDaemon = text
      case .option("--seed", let text?):
        guard let parsed = UInt64(text) else {
          throw BenchError(.invalidValue(text, for: "--seed", expected: "a whole number"))
        }
        fuzzSeed = parsed
      case .option("--markdown", let text?): markdownPath = text
      case .option("--redis-server", let text?): redisServer = text
      case .option("--no-redis", _): redisServer = nil
      case .option("--etcd", let text?): etcd = text
      case .option("--no-etcd", _): etcd = nil
      case .option("--binaries", let text?): binaries = text
      case .option("--directory", let text?): directory = text
      case .option("--help", _):
        print(Self.usage)
        exit(0)
      case .option(let word, _), .unknownOption(let word), .positional(let word):
        throw BenchError("unknown argument '\(word)'\n\n\(Self.usage)")
      }
    }
  }

  func wants(_ figure: String) -> Bool {
    only?.contains(figure) ?? true
  }
}
