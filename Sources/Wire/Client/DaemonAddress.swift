import Glibc

/// Where a client finds a daemon: its name and its socket, as `tcactl` and
/// the web client look for them when not told (docs/CLI.md, "The socket").
public enum DaemonAddress {
  /// The daemon's name when neither `--app` nor `$TCA_APP` gives one: the
  /// seed apps' daemon.
  public static let defaultApp = "storedaemon"

  /// Whether `name` can be a daemon's name: what its units, user and
  /// directories are named after (lower-case letters, digits and `-`,
  /// starting with a letter; docs/HOSTING.md).
  public static func isDaemonName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.count <= 64 else { return false }
    return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
  }

  /// The sockets a client is given as one text (`--socket`, `$TCA_SOCKET`):
  /// a path, or several separated by commas, the daemons of one replicated
  /// store (`/run/a/a.sock,/run/b/b.sock`), in the order to try them. Blanks
  /// around each are dropped, and a path given twice counts once. Nil when a
  /// path is empty (`a.sock,,b.sock`, or nothing at all): a path holding a
  /// comma cannot be given.
  public static func socketPaths(_ text: String) -> [String]? {
    var paths: [String] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let path = String(part.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
      guard !path.isEmpty else { return nil }
      if !paths.contains(path) { paths.append(path) }
    }
    return paths
  }

  /// The host and port of a daemon's TCP listener named `tcp://HOST:PORT`
  /// (an IPv4 address, usually a TLS terminator's local end); nil for a
  /// Unix socket's path.
  public static func tcp(_ address: String) -> (host: String, port: UInt16)? {
    guard address.hasPrefix("tcp://") else { return nil }
    let rest = address.dropFirst("tcp://".count)
    guard let colon = rest.lastIndex(of: ":"), !rest[..<colon].isEmpty,
      let port = UInt16(rest[rest.index(after: colon)...])
    else { return nil }
    return (String(rest[..<colon]), port)
  }

  /// The system service's socket for the daemon called `app`
  /// (docs/OPERATIONS.md).
  public static func systemSocketPath(app: String = defaultApp) -> String { "/run/\(app)/\(app).sock" }

  /// The daemon's default socket, as the daemon called `app` chooses it for
  /// this user; when no socket is there but the system service's is, that
  /// one, so that a client finds a daemon run by systemd without `--socket`.
  public static func defaultSocketPath(
    app: String = defaultApp, environment: [String: String], exists: (String) -> Bool = { access($0, F_OK) == 0 }
  ) -> String {
    if let runtime = environment["RUNTIME_DIRECTORY"], !runtime.isEmpty {
      return "\(runtime.split(separator: ":").first.map(String.init) ?? runtime)/\(app).sock"
    }
    let own: String
    if let xdg = environment["XDG_RUNTIME_DIR"], !xdg.isEmpty {
      own = "\(xdg)/\(app)/\(app).sock"
    } else {
      own = "/tmp/\(app)-\(getuid())/\(app).sock"
    }
    let system = systemSocketPath(app: app)
    return !exists(own) && exists(system) ? system : own
  }
}
