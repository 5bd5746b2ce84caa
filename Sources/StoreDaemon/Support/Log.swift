import Platform

/// The daemon's log: `storedaemon: …` lines on standard error (``Logger``),
/// filtered by `--log-level`.
// swift-format-ignore: AlwaysUseLowerCamelCase
// Named as a type is, so that call sites read `Log.info("…")`.
let Log = Logger(name: "storedaemon", namesLevels: true)
