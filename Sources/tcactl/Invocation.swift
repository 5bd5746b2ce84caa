import Glibc

/// A parsed `tcactl` command line: the command, its words, and the options
/// common to all commands.
struct Invocation {
  var command: String
  var words: [String] = []
  var socketPath: String
  var json = false
  var since: UInt64?
  /// `get --at V`: the state as of version V.
  var at: UInt64?
  /// `log -n N`: at most the last N records.
  var last: Int?
  /// `log --follow`.
  var follow = false
  var epoch: String?
  var version = false
  var wait = false
  /// `actions --all`: the internal actions too, marked.
  var all = false
  var timeout: Duration = .seconds(30)
  var help = false

  /// Exit statuses, documented in docs/CLI.md.
  enum ExitCode: Int32 {
    case ok = 0
    case rejected = 1
    case usage = 2
    case unreachable = 69
  }

  static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Invocation {
    var invocation = Invocation(command: "", socketPath: "")
    var socketPath = environment["TCA_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    var index = 0
    var positional: [String] = []
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "-h" {
        invocation.help = true
        index += 1
        continue
      }
      if !optionsEnded && argument == "-n" {
        index += 1
        guard index < arguments.count, let count = Int(arguments[index]), count > 0 else {
          throw UsageError("-n needs a number of records, at least 1")
        }
        invocation.last = count
        index += 1
        continue
      }
      if !optionsEnded && argument == "-f" {
        invocation.follow = true
        index += 1
        continue
      }
      if optionsEnded || !argument.hasPrefix("--") {
        positional.append(argument)
        index += 1
        continue
      }
      switch argument {
      case "--":
        optionsEnded = true
      case "--socket":
        index += 1
        guard index < arguments.count else { throw UsageError("--socket needs a path") }
        socketPath = arguments[index]
      case "--json":
        invocation.json = true
      case "--since":
        index += 1
        guard index < arguments.count, let version = UInt64(arguments[index]) else {
          throw UsageError("--since needs a version number")
        }
        invocation.since = version
      case "--at":
        index += 1
        guard index < arguments.count, let version = UInt64(arguments[index]) else {
          throw UsageError("--at needs a version number")
        }
        invocation.at = version
      case "--follow":
        invocation.follow = true
      case "--epoch":
        index += 1
        guard index < arguments.count, !arguments[index].isEmpty else { throw UsageError("--epoch needs the epoch that --since belongs to") }
        invocation.epoch = arguments[index]
      case "--version":
        invocation.version = true
      case "--wait":
        invocation.wait = true
      case "--all":
        invocation.all = true
      case "--timeout":
        index += 1
        guard index < arguments.count, let seconds = Double(arguments[index]), seconds > 0, seconds <= 86_400 else {
          throw UsageError("--timeout needs a number of seconds between 0 and 86400")
        }
        invocation.timeout = .milliseconds(Int(seconds * 1000))
      case "--help":
        invocation.help = true
      default:
        throw UsageError("unknown option '\(argument)'")
      }
      index += 1
    }
    invocation.command = positional.first ?? ""
    invocation.words = Array(positional.dropFirst())
    invocation.socketPath = socketPath ?? defaultSocketPath(environment: environment)
    return invocation
  }

  /// The system service's socket (docs/OPERATIONS.md).
  static let systemSocketPath = "/run/storedaemon/storedaemon.sock"

  /// The daemon's default socket, as `storedaemon` chooses it for this user;
  /// when no socket is there but the system service's is, that one, so that
  /// `tcactl` finds a daemon run by systemd without `--socket`.
  static func defaultSocketPath(
    environment: [String: String], exists: (String) -> Bool = { access($0, F_OK) == 0 }
  ) -> String {
    if let runtime = environment["RUNTIME_DIRECTORY"], !runtime.isEmpty {
      return "\(runtime.split(separator: ":").first.map(String.init) ?? runtime)/storedaemon.sock"
    }
    let own: String
    if let xdg = environment["XDG_RUNTIME_DIR"], !xdg.isEmpty {
      own = "\(xdg)/storedaemon/storedaemon.sock"
    } else {
      own = "/tmp/storedaemon-\(getuid())/storedaemon.sock"
    }
    return !exists(own) && exists(systemSocketPath) ? systemSocketPath : own
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

/// A command line `tcactl` cannot act on.
struct UsageError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
