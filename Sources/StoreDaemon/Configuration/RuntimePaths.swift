import Glibc

/// Where the daemon of the app called `name` keeps its socket and state when
/// not told: systemd's
/// directories first, then the XDG base directories, then per-user fallbacks,
/// so that running it by hand needs no root and no configuration.
enum RuntimePaths {
  static func defaultSocket(name: String, environment: [String: String]) -> String {
    if let runtime = nonEmpty(environment["RUNTIME_DIRECTORY"]) {
      // systemd may list several directories separated by ':'; the first is ours.
      return "\(runtime.split(separator: ":").first.map(String.init) ?? runtime)/\(name).sock"
    }
    if let xdg = nonEmpty(environment["XDG_RUNTIME_DIR"]) {
      return "\(xdg)/\(name)/\(name).sock"
    }
    return "/tmp/\(name)-\(getuid())/\(name).sock"
  }

  static func defaultStateDirectory(name: String, environment: [String: String]) -> String {
    if let state = nonEmpty(environment["STATE_DIRECTORY"]) {
      return state.split(separator: ":").first.map(String.init) ?? state
    }
    if let xdg = nonEmpty(environment["XDG_STATE_HOME"]) {
      return "\(xdg)/\(name)"
    }
    let home = nonEmpty(environment["HOME"]) ?? "/tmp/\(name)-home-\(getuid())"
    return "\(home)/.local/state/\(name)"
  }

  private static func nonEmpty(_ value: String?) -> String? {
    guard let value, !value.isEmpty else { return nil }
    return value
  }
}
