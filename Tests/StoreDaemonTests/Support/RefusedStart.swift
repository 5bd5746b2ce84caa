import Foundation
import Glibc
import Platform
import TestSupport
import Wire

/// A `storedaemon` started to see it refuse to start: its exit status and
/// what it wrote. One that listens at `socket` instead is stopped, and
/// reported as such.
struct RefusedStart {
  /// The exit status; nil when the daemon served instead of refusing.
  let status: Int32?
  let standardError: String

  init(_ arguments: [String], socket: String, executable: String = "storedaemon", environment: [String: String] = [:])
    throws
  {
    let scratch = try TemporaryDirectory(prefix: "sd-refused")
    let output = scratch.appending("output.log")
    let storedaemon = DaemonProcess.productsDirectory.appendingPathComponent(executable).path
    // Spawned and reaped by pid: Foundation's `Process` can confuse two
    // children started at the same moment by tests running side by side.
    let process = try SpawnedProcess(
      [storedaemon] + arguments,
      environment: environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 },
      output: output)
    var served = false
    try waitUntil("storedaemon exits or serves") {
      if !process.isRunning { return true }
      if let listening = try? UnixSocket.connect(to: socket) {
        listening.close()
        served = true
        return true
      }
      return false
    }
    let exitStatus = process.stop()
    status = served ? nil : exitStatus
    standardError = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
  }
}
