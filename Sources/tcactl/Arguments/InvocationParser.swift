import Platform
import Wire

/// Reads `tcactl`'s words into an ``Invocation``, left to right: the first
/// word that is not an option names the command, the others are its words.
///
/// Options may come anywhere, before or after the command; `--name=value`
/// and `--name value` are the same; `--` ends the options. After `send`'s
/// action path, a word starting with a single `-` (other than `-h`) is an
/// argument, so that `tcactl send search.textChanged -x` needs no `--`.
///
/// The first mistake is kept and thrown at the end, unless the line asks for
/// help (`--help`, `-h`) for a known command or none: help wins, so that
/// adding `--help` to a line that failed shows how to fix it.
struct InvocationParser {
  private var parser: ArgumentParser
  private var invocation = Invocation()
  private var firstError: UsageError?
  private var unknownCommand = false

  init(_ arguments: [String]) {
    let options = Option.allCases.map { ArgumentParser.Option(spellings: $0.spellings, value: $0.valueDescription) }
    parser = ArgumentParser(arguments, options: options)
  }

  mutating func parse() throws(UsageError) -> Invocation {
    while let argument = nextArgument() {
      switch argument {
      case .positional(let word): positional(word)
      case .option(let name, let value):
        // The parser knows only the options' own spellings.
        if let option = Option(spelling: name) { take(option, value: value) } else { unknown(name) }
      case .unknownOption(let name): unknown(name)
      }
    }
    if invocation.command == nil && invocation.given.contains(.version) { invocation.command = .version }
    if invocation.command == nil && !unknownCommand
      && !invocation.given.subtracting([.socket, .app, .daemonUser, .tokenFile, .store, .help]).isEmpty
    {
      let names = Command.daemonCommands.map(\.rawValue).joined(separator: ", ")
      fail("no command given; expected one of: \(names)")
    }
    if invocation.help && !unknownCommand { return invocation }
    if let firstError { throw firstError }
    try invocation.validate()
    return invocation
  }

  /// The next option or word; a word the parser refuses (an option missing
  /// its value, a flag given one) is kept as a mistake, and reading goes on.
  private mutating func nextArgument() -> ArgumentParser.Argument? {
    while true {
      let takesAction = invocation.command == .send || invocation.command == .whatIf
      let isSendArgument = takesAction && !invocation.words.isEmpty && parser.nextWord != "-h"
      do {
        return try parser.next(shortOptionsArePositional: isSendArgument)
      } catch {
        fail(error.description)
      }
    }
  }

  private mutating func positional(_ word: String) {
    guard invocation.command == nil, !unknownCommand else {
      invocation.words.append(word)
      return
    }
    if let command = Command(rawValue: word) {
      invocation.command = command
      firstError?.command = command
    } else {
      unknownCommand = true
      let names = Command.daemonCommands.map(\.rawValue)
      let guess =
        NearestWord.nearest(to: word, among: names + ["help", "version"]).map { "did you mean \($0)? " } ?? ""
      fail("unknown command '\(word)'; \(guess)expected one of: \(names.joined(separator: ", "))")
    }
  }

  /// An option no command takes: a long one with a guess at the intended one.
  private mutating func unknown(_ name: String) {
    let forCommand = invocation.command.map { " for \($0.rawValue)" } ?? ""
    guard name.hasPrefix("--") else {
      fail("unknown option '\(name)'\(forCommand)")
      return
    }
    let known = (invocation.command?.options ?? Set(Option.allCases)).flatMap(\.spellings).filter { $0.hasPrefix("--") }
    let guess = NearestWord.nearest(to: name, among: known.sorted()).map { "; did you mean \($0)?" } ?? ""
    fail("unknown option '\(name)'\(forCommand)\(guess)")
  }

  /// Records `option` with its `value`, if it takes one.
  private mutating func take(_ option: Option, value: String?) {
    let isRepeat = invocation.given.contains(option)
    invocation.given.insert(option)
    guard let value, let expected = option.valueDescription else {
      set(option, to: nil)
      return
    }
    if isRepeat {
      fail("\(option.name) is given twice; give it once")
      return
    }
    if !set(option, to: value) { fail("\(option.name) needs \(expected); got '\(value)'") }
  }

  /// Stores `value` for `option`; `false` if the value does not fit.
  @discardableResult
  private mutating func set(_ option: Option, to value: String?) -> Bool {
    let value = value ?? ""
    switch option {
    case .socket:
      guard let paths = DaemonAddress.socketPaths(value) else { return false }
      invocation.socketPaths = paths
    case .app:
      invocation.app = value
      return DaemonAddress.isDaemonName(value)
    case .daemonUser:
      invocation.daemonUser = DaemonUser(user: value)
      return invocation.daemonUser != nil
    case .tokenFile:
      invocation.tokenFile = value
      return !value.isEmpty
    case .store:
      invocation.store = try? StoreName(value)
      return invocation.store != nil
    case .json: invocation.json = true
    case .full: invocation.full = true
    case .follow: invocation.follow = true
    case .wait: invocation.wait = true
    case .all: invocation.all = true
    case .help: invocation.help = true
    case .version: break
    case .since:
      invocation.since = UInt64(value)
      return invocation.since != nil
    case .at:
      invocation.at = UInt64(value)
      return invocation.at != nil
    case .last:
      guard let count = Int(value), count >= 1 else { return false }
      invocation.last = count
    case .epoch:
      invocation.epoch = value
      return !value.isEmpty
    case .without, .replace:
      guard let version = UInt64(value), version >= 1 else { return false }
      invocation.edited = version
    case .timeout:
      guard let seconds = Double(value), seconds > 0, seconds <= 86_400 else { return false }
      invocation.timeout = .milliseconds(Int((seconds * 1000).rounded(.up)))
    }
    return true
  }

  private mutating func fail(_ message: String) {
    if firstError == nil { firstError = UsageError(message, command: invocation.command) }
  }
}
