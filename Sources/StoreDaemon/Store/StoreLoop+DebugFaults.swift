#if DEBUG
  import FoundationEssentials
  import Glibc
  import Wire

  /// Faults the tests inject into debug builds only; release builds compile
  /// none of this.
  /// `STOREDAEMON_DEBUG_STALL=PATH:SECONDS`: when a client sends the action
  /// at PATH, the loop stalls for SECONDS before reducing it, as a reducer
  /// stuck in a loop would (the watchdog test).
  private let debugStall: (path: String, duration: Duration)? = {
    guard let value = ProcessInfo.processInfo.environment["STOREDAEMON_DEBUG_STALL"],
      let colon = value.lastIndex(of: ":"), let seconds = Double(value[value.index(after: colon)...])
    else { return nil }
    return (String(value[..<colon]), .milliseconds(Int(seconds * 1000)))
  }()

  extension StoreLoop {
    func stallIfAsked(_ input: ClientMessage.ActionInput) {
      guard let stall = debugStall, case .path(let path, _) = input, path == stall.path else { return }
      Log.warning("stalling the store loop for \(stall.duration) (STOREDAEMON_DEBUG_STALL)")
      usleep(useconds_t(clamping: Int(stall.duration / .microseconds(1))))
    }
  }

  extension HistoryReader {
    /// `STOREDAEMON_DEBUG_HISTORY_GATE=PATH`: every read of the journal for
    /// `log` or `get` with `at` first creates `PATH.waiting`, then waits
    /// until a file exists at PATH, so that a test can act while a read is
    /// under way and then let it go on.
    static let debugGate: String? = ProcessInfo.processInfo.environment["STOREDAEMON_DEBUG_HISTORY_GATE"]

    static func waitAtGateIfAsked() {
      guard let gate = debugGate else { return }
      _ = FileManager.default.createFile(atPath: gate + ".waiting", contents: nil)
      while access(gate, F_OK) != 0 { usleep(10_000) }
    }
  }
#endif
