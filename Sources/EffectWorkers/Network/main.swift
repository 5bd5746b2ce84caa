// effectworker-network: the network worker of storedaemon, HTTP through
// URLSession, started by the daemon with its socket on file descriptor 3.
// It is a program of its own so that only it loads FoundationNetworking and
// libcurl (WorkerProgram). See docs/WORKERS.md.
import EffectWorkers

WorkerMain.run(
  WorkerProgram(kinds: [.network]) { options, channel in
    NetworkEngine(channel: channel, maximumResponseBytes: options.maximumResponseBytes)
  },
  arguments: Array(CommandLine.arguments.dropFirst()))
