// effectworker: one process per effect kind (timer, network, storage), started
// by storedaemon with its socket on file descriptor 3. See docs/WORKERS.md.
WorkerMain.run(Array(CommandLine.arguments.dropFirst()))
