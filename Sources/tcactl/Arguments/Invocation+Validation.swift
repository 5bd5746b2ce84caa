import Platform

/// The checks that need the whole line: every option applies to the command,
/// the command has the words it takes, and options that go together do.
extension Invocation {
  func validate() throws(UsageError) {
    guard let command else { return }
    func refuse(_ message: String) -> UsageError { UsageError(message, command: command) }

    for option in Option.allCases where given.contains(option) && !command.options.contains(option) {
      if option == .version { throw refuse("--version takes no command; run 'tcactl --version'") }
      let takers = Command.taking(option).map(\.rawValue)
      let list =
        takers.count > 1 ? takers.dropLast().joined(separator: ", ") + " and " + (takers.last ?? "") : takers.joined()
      throw refuse("\(option.name) does not apply to \(command.rawValue) (only to \(list))")
    }

    if command == .send && words.isEmpty {
      throw refuse("send needs an action path, e.g. 'tcactl send cart.addItem 3'; 'tcactl actions' lists them")
    }
    if let maximum = command.maximumWords, words.count > maximum {
      let got = words.map { "'\($0)'" }.joined(separator: " ")
      throw refuse("\(command.rawValue) takes \(command.wordsDescription); got \(got)")
    }
    if command == .help, let name = words.first, Command(rawValue: name) == nil {
      let names = Command.daemonCommands.map(\.rawValue).joined(separator: ", ")
      throw UsageError("no help for '\(name)': it is not a command; expected one of: \(names)")
    }

    if command == .whatIf {
      switch (given.contains(.without), given.contains(.replace)) {
      case (false, false):
        throw refuse(
          "what-if needs --without N (leave version N's action out) or --replace N PATH [ARGS...] (put another "
            + "action in its place)")
      case (true, true):
        throw refuse("--without and --replace exclude each other: give one")
      case (true, false) where !words.isEmpty:
        let got = words.map { "'\($0)'" }.joined(separator: " ")
        throw refuse("what-if --without takes no action path; got \(got) (to put another action in, use --replace N)")
      case (false, true) where words.isEmpty:
        throw refuse("what-if --replace N needs the action to put in its place, e.g. --replace 12 cart.addItem 3")
      default:
        break
      }
    }
    if given.contains(.timeout) && !wait {
      throw refuse("--timeout applies only with --wait: 'tcactl send PATH --wait --timeout S'")
    }
    if command == .send && full && !wait {
      throw refuse("--full applies to send only with --wait: without it, send prints only the version")
    }
    if full && json {
      throw refuse("--full and --json exclude each other: --json always prints values whole")
    }
    if epoch != nil && since == nil {
      throw refuse("--epoch applies only with --since: it names the line of versions --since's version belongs to")
    }
  }
}
