import Platform

/// The daemon's log: `storedaemon: …` lines on standard error (``Logger``),
/// filtered by `--log-level`.
let Log = Logger(name: "storedaemon", namesLevels: true)
