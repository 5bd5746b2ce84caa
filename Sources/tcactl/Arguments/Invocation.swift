import Glibc
import Platform
import Wire

/// A parsed `tcactl` command line: the command, its words, and its options,
/// each already checked to apply to the command (``InvocationParser``).
struct Invocation {
  /// The command; `nil` when the line names none (`tcactl`, `tcactl --help`).
  var command: Command?
  var words: [String] = []
  /// `--socket`, else `$TCA_SOCKET`, else the daemon's default: a socket,
  /// or the sockets of a replicated store's daemons, in the order to try
  /// them (``DaemonAddress/socketPaths(_:)``).
  var socketPaths: [String] = []
  /// The sockets as given, separated by commas.
  var socketPath: String { socketPaths.joined(separator: ",") }
  /// `--app`, else `$TCA_APP`, else `storedaemon`: the daemon's name, which
  /// names its default socket and its system service's user.
  var app = ""
  /// `--daemon-user`, else `$TCA_DAEMON_USER`: who the daemon must run as;
  /// nil for ``DaemonUser/standard``.
  var daemonUser: DaemonUser?
  /// `--token-file`, else `$TCA_TOKEN_FILE`: the token a daemon's TCP
  /// listener (`tcp://HOST:PORT` in `--socket`) asks for.
  var tokenFile: String?
  /// `--store`, else `$TCA_STORE`: the daemon's store to use; nil for its
  /// default store.
  var store: StoreName?
  var json = false
  /// `--full`: values whole instead of cut (``ValueText``).
  var full = false
  var since: UInt64?
  /// `get --at V`: the state as of version V.
  var at: UInt64?
  /// `log -n N`: at most the last N records.
  var last: Int?
  /// `log --follow`.
  var follow = false
  var epoch: String?
  var wait = false
  /// `actions --all`: the internal actions too, marked.
  var all = false
  var timeout: Duration = .seconds(30)
  /// `what-if --without N` or `--replace N`: the version edited.
  var edited: UInt64?
  var help = false
  /// The options the line gave, to check that each applies to the command.
  var given: Set<Option> = []

  /// Exit statuses, documented in docs/CLI.md.
  enum ExitCode: Int32 {
    case ok = 0
    case rejected = 1
    case usage = 2
    case unreachable = 69
  }

  /// Parses `arguments` (the words after `tcactl`); the socket defaults from
  /// `environment`.
  ///
  /// - Throws: ``UsageError`` for the first word, option or value that does
  ///   not fit, unless the line asks for help, which wins.
  static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Invocation {
    var parser = InvocationParser(arguments)
    var invocation = try parser.parse()
    // Only a line that will connect needs the socket and the daemon's user
    // from the environment: help and version work anyway.
    let connects = !invocation.help && invocation.command.map(Command.daemonCommands.contains) == true
    if invocation.app.isEmpty {
      let fromEnvironment = environment["TCA_APP"] ?? ""
      guard fromEnvironment.isEmpty || DaemonAddress.isDaemonName(fromEnvironment) else {
        throw UsageError(
          // invariant: --app takes a value, so it has a description of it
          "TCA_APP needs \(Option.app.valueDescription!); got '\(fromEnvironment)'", command: invocation.command)
      }
      invocation.app = fromEnvironment.isEmpty ? DaemonAddress.defaultApp : fromEnvironment
    }
    if invocation.socketPaths.isEmpty {
      let fromEnvironment = environment["TCA_SOCKET"] ?? ""
      if fromEnvironment.isEmpty {
        invocation.socketPaths = [DaemonAddress.defaultSocketPath(app: invocation.app, environment: environment)]
      } else if let paths = DaemonAddress.socketPaths(fromEnvironment) {
        invocation.socketPaths = paths
      } else if connects {
        throw UsageError(
          // invariant: --socket takes a value, so it has a description of it
          "TCA_SOCKET needs \(Option.socket.valueDescription!); got '\(fromEnvironment)'", command: invocation.command)
      }
    }
    if connects, invocation.daemonUser == nil, let user = environment["TCA_DAEMON_USER"], !user.isEmpty {
      guard let daemonUser = DaemonUser(user: user) else {
        throw UsageError(
          "TCA_DAEMON_USER needs a user name or uid (the user storedaemon runs as); got '\(user)'",
          command: invocation.command)
      }
      invocation.daemonUser = daemonUser
    }
    if invocation.tokenFile == nil, let file = environment["TCA_TOKEN_FILE"], !file.isEmpty {
      invocation.tokenFile = file
    }
    if connects, invocation.store == nil, let name = environment["TCA_STORE"], !name.isEmpty {
      guard let store = try? StoreName(name) else {
        throw UsageError(
          // invariant: --store takes a value, so it has a description of it
          "TCA_STORE needs \(Option.store.valueDescription!); got '\(name)'", command: invocation.command)
      }
      invocation.store = store
    }
    return invocation
  }

  /// A state path as a JSON Pointer: `cart.items.0` → `/cart/items/0`; a path
  /// that starts with `/` is taken as a pointer, and one with a `/` elsewhere
  /// (`cart/items`) as a pointer missing its leading `/` (state keys are
  /// Swift property names, which never hold a `/`).
  static func pointer(fromStatePath path: String?) -> String {
    guard let path, !path.isEmpty else { return "" }
    if path.hasPrefix("/") { return path }
    if path.contains("/") { return "/" + path }
    return path.split(separator: ".").map { "/" + $0.replacing("~", with: "~0").replacing("/", with: "~1") }.joined()
  }
}
