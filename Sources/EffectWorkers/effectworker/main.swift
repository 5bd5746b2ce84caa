// effectworker: the timer and storage workers of storedaemon, one process per
// kind, started by the daemon with its socket on file descriptor 3. The
// network worker is effectworker-network (../Network). See docs/WORKERS.md.
import EffectWorkers

WorkerMain.run(.effectworker, arguments: Array(CommandLine.arguments.dropFirst()))
