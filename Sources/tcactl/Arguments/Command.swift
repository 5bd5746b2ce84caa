/// A command of `tcactl`, with the words and options it takes. The parser
/// refuses anything else with a message naming it (``UsageError``).
enum Command: String, CaseIterable {
  case send, get, watch, log
  case whatIf = "what-if"
  case actions, status, stores, help, version

  /// The commands that talk to the daemon, in the order help lists them.
  static let daemonCommands: [Command] = [.send, .get, .watch, .log, .whatIf, .actions, .status, .stores]

  /// The options this command takes. `--socket`, `--app`, `--daemon-user`
  /// and `--help` go with every command; a few apply only beside another option
  /// (``Invocation/validate()``).
  var options: Set<Option> {
    let common: Set<Option> = [.socket, .app, .daemonUser, .tokenFile, .store, .help]
    switch self {
    case .send: return common.union([.json, .wait, .timeout, .full])
    case .get: return common.union([.json, .at])
    case .watch: return common.union([.json, .full, .since, .epoch])
    case .log: return common.union([.json, .full, .last, .since, .follow])
    case .whatIf: return common.union([.json, .full, .at, .without, .replace])
    case .actions: return common.union([.json, .all])
    case .status: return common.union([.json])
    case .stores: return common.subtracting([.store]).union([.json])
    case .help: return common
    case .version: return common.union([.version])
    }
  }

  /// The most words the command takes after its name (nil: any number).
  var maximumWords: Int? {
    switch self {
    case .send, .whatIf: nil
    case .get, .watch, .help: 1
    case .log, .actions, .status, .stores, .version: 0
    }
  }

  /// What the command's words are, for the message refusing too many.
  var wordsDescription: String {
    switch self {
    case .send: "an action path and its arguments"
    case .whatIf: "with --replace, an action path and its arguments; with --without, none"
    case .get, .watch: "at most one state path"
    case .help: "at most one command"
    case .log, .actions, .status, .stores, .version: "no arguments"
    }
  }

  /// The commands that take `option`, for the message refusing it elsewhere.
  static func taking(_ option: Option) -> [Command] {
    daemonCommands.filter { $0.options.contains(option) }
  }
}
