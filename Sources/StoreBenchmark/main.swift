import Foundation
import Glibc
import Platform
import Wire

// storedaemon-bench: storedaemon beside Redis and the raw socket, in one run
// (docs/BENCHMARKS.md). `scripts/bench.sh` builds it in release mode and runs it.

if CommandLine.arguments.dropFirst().first == PingPong.peerFlag { PingPong.runPeer() }
SignalMask.unblockAll()
signal(SIGPIPE, SIG_IGN)

do {
  let options = try BenchOptions(Array(CommandLine.arguments.dropFirst()))
  let benchmark = try Benchmark(options: options)
  if options.fuzz {
    let run = FuzzRun(
      minutes: options.fuzzMinutes, connections: options.fuzzConnections, seed: options.fuzzSeed,
      daemonName: options.fuzzDaemon, actionsOnly: options.fuzzActionsOnly,
      daemonArguments: options.fuzzWorkers.flatMap { ["--worker", $0] }, judgesLatency: options.fuzzJudgesLatency)
    let passed = try run.run(benchmark: benchmark)
    benchmark.removeDirectories()
    exit(passed ? 0 : 1)
  }
  print(
    "storedaemon-bench\(options.smoke ? " (smoke: nothing judged)" : ""): \(options.seconds) s per load, "
      + "Redis: \(options.redisServer ?? "none"), etcd: \(options.etcd ?? "none"), in \(benchmark.root)")
  benchmark.measureFloor()
  benchmark.measureRequestReply()
  benchmark.measureReplication()
  benchmark.measureFanOut()
  benchmark.measureStateSize()
  benchmark.measureEffects()
  benchmark.measureMemory()
  benchmark.measureIdleClients()
  benchmark.measureTCPFlood()
  benchmark.measureStartup()
  benchmark.measureStores()
  benchmark.measureVerify()
  print("\n" + benchmark.report.markdown)
  if let path = options.markdownPath {
    try? (benchmark.report.markdown + "\n").write(toFile: path, atomically: true, encoding: .utf8)
  }
  benchmark.removeDirectories()
  if !benchmark.report.failures.isEmpty {
    FileHandle.standardError.write(
      Data("storedaemon-bench: \(benchmark.report.failures.count) measurement(s) failed\n".utf8))
    exit(1)
  }
} catch {
  FileHandle.standardError.write(Data("storedaemon-bench: \(error)\n".utf8))
  exit(2)
}
