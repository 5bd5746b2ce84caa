/// The statuses `effectworker` exits with (the usual `sysexits.h` values where
/// one fits), so the daemon's log says why a worker stopped.
enum ExitStatus: Int32, Sendable {
  /// The daemon closed the socket: it is gone or it stopped this worker.
  case success = 0
  /// The worker could not start (e.g. the state directory is unusable), or
  /// its socket failed in a way that is not the daemon going away.
  case failure = 1
  /// The command line is wrong, or there is no socket on file descriptor 3.
  case usage = 64
  /// The daemon sent a frame or message the worker cannot read.
  case protocolError = 65
}
