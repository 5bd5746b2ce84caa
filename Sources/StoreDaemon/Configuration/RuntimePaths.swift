import Glibc

/// Where the daemon's socket and state live when not told: systemd's
/// directories first, then the XDG base directories, then per-user fallbacks,
/// so that running it by hand needs no root and no configuration.
enum RuntimePaths {
  static func defaultSocket(environment: [String: String]) -> String {
    if let runtime = nonEmpty(environment["RUNTIME_DIRECTORY"]) {
      // systemd may list several directories separated by ':'; the first is ours.
      return "\(runtime.split(separator: ":").first.map(String.init) ?? runtime)/storedaemon.sock"
    }
    if let xdg = nonEmpty(environment["XDG_RUNTIME_DIR"]) {
      return "\(xdg)/storedaemon/storedaemon.sock"
    }
    return "/tmp/storedaemon-\(getuid())/storedaemon.sock"
  }

  static func defaultStateDirectory(environment: [String: String]) -> String {
    if let state = nonEmpty(environment["STATE_DIRECTORY"]) {
      return state.split(separator: ":").first.map(String.init) ?? state
    }
    if let xdg = nonEmpty(environment["XDG_STATE_HOME"]) {
      return "\(xdg)/storedaemon"
    }
    let home = nonEmpty(environment["HOME"]) ?? "/tmp/storedaemon-home-\(getuid())"
    return "\(home)/.local/state/storedaemon"
  }

  private static func nonEmpty(_ value: String?) -> String? {
    guard let value, !value.isEmpty else { return nil }
    return value
  }
}
