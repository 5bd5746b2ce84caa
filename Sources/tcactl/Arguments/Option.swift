import Wire

/// An option of `tcactl`'s command line: how it is written, what value it
/// takes, and which commands it applies to (``Command/options``).
enum Option: CaseIterable {
  case socket, app, daemonUser, tokenFile, store, json, full, since, at, last, follow, epoch, wait, all, timeout,
    without,
    replace, help,
    version

  /// How the option is named in messages and help: `--at`, `-n`.
  var name: String {
    switch self {
    case .socket: "--socket"
    case .app: "--app"
    case .daemonUser: "--daemon-user"
    case .tokenFile: "--token-file"
    case .store: "--store"
    case .json: "--json"
    case .full: "--full"
    case .since: "--since"
    case .at: "--at"
    case .last: "-n"
    case .follow: "--follow"
    case .epoch: "--epoch"
    case .wait: "--wait"
    case .all: "--all"
    case .timeout: "--timeout"
    case .without: "--without"
    case .replace: "--replace"
    case .help: "--help"
    case .version: "--version"
    }
  }

  /// Every way of writing the option.
  var spellings: [String] {
    switch self {
    case .last: ["-n"]
    case .follow: ["--follow", "-f"]
    case .help: ["--help", "-h"]
    default: [name]
    }
  }

  /// What the option's value is, for the options that take one; the
  /// message when the value is missing or does not fit says it.
  var valueDescription: String? {
    switch self {
    case .socket: "a path, or the paths of a replicated store's daemons separated by commas"
    case .app: "a daemon's name, as its units and directories are named (storedaemon, or a hosted app's)"
    case .daemonUser: "a user name or uid (the user storedaemon runs as)"
    case .tokenFile: "a file whose first line is the token of the daemon's TCP listener"
    case .store:
      "a store's name: 1 to \(StoreName.maximumBytes) bytes of a-z, 0-9, '.', '_' and '-', beginning with a letter "
        + "or a digit and ending with neither '.' nor '-'"
    case .since, .at: "a version number (0 or more)"
    case .last: "a count of at least 1"
    case .epoch: "the epoch that --since belongs to (as `tcactl status` shows it)"
    case .timeout: "a number of seconds above 0, at most 86400"
    case .without, .replace: "a version number (1 or more): the version whose action to leave out or replace"
    case .json, .full, .follow, .wait, .all, .help, .version: nil
    }
  }

  /// The option written `spelling` (`--at`, `-f`), if any.
  init?(spelling: String) {
    guard let option = Self.allCases.first(where: { $0.spellings.contains(spelling) }) else { return nil }
    self = option
  }
}
