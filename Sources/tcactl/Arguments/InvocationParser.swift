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
  private let arguments: [String]
  private var index = 0
  private var invocation = Invocation()
  private var firstError: UsageError?
  private var unknownCommand = false
  private var optionsEnded = false

  init(_ arguments: [String]) {
    self.arguments = arguments
  }

  mutating func parse() throws(UsageError) -> Invocation {
    while index < arguments.count {
      let word = arguments[index]
      index += 1
      if optionsEnded || word == "-" || !word.hasPrefix("-") {
        positional(word)
      } else if word == "--" {
        optionsEnded = true
      } else if word.hasPrefix("--") {
        long(word)
      } else {
        short(word)
      }
    }
    if invocation.command == nil && invocation.given.contains(.version) { invocation.command = .version }
    if invocation.command == nil && !unknownCommand && !invocation.given.subtracting([.socket, .daemonUser, .help]).isEmpty {
      let names = Command.daemonCommands.map(\.rawValue).joined(separator: ", ")
      fail("no command given; expected one of: \(names)")
    }
    if invocation.help && !unknownCommand { return invocation }
    if let firstError { throw firstError }
    try invocation.validate()
    return invocation
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
      let guess = NearestWord.nearest(to: word, among: names + ["help", "version"]).map { "did you mean \($0)? " } ?? ""
      fail("unknown command '\(word)'; \(guess)expected one of: \(names.joined(separator: ", "))")
    }
  }

  private mutating func long(_ word: String) {
    let name: String
    var inline: String?
    if let equals = word.firstIndex(of: "=") {
      name = String(word[..<equals])
      inline = String(word[word.index(after: equals)...])
    } else {
      name = word
    }
    guard let option = Option(spelling: name) else {
      let known = (invocation.command?.options ?? Set(Option.allCases)).flatMap(\.spellings).filter { $0.hasPrefix("--") }
      let guess = NearestWord.nearest(to: name, among: known.sorted()).map { "; did you mean \($0)?" } ?? ""
      let forCommand = invocation.command.map { " for \($0.rawValue)" } ?? ""
      fail("unknown option '\(name)'\(forCommand)\(guess)")
      return
    }
    if option.valueDescription == nil, inline != nil {
      fail("\(option.name) takes no value; got '\(word)'")
      return
    }
    take(option, inline: inline)
  }

  private mutating func short(_ word: String) {
    let isSendArgument = invocation.command == .send && !invocation.words.isEmpty && word != "-h"
    if !isSendArgument, let option = Option(spelling: word) {
      take(option, inline: nil)
    } else if isSendArgument {
      invocation.words.append(word)
    } else {
      fail("unknown option '\(word)'\(invocation.command.map { " for \($0.rawValue)" } ?? "")")
    }
  }

  /// Records `option`, reading its value (given inline, or the next word)
  /// if it takes one.
  private mutating func take(_ option: Option, inline: String?) {
    let isRepeat = invocation.given.contains(option)
    invocation.given.insert(option)
    guard let expected = option.valueDescription else {
      set(option, to: nil)
      return
    }
    let value: String
    if let inline {
      value = inline
    } else if index < arguments.count {
      value = arguments[index]
      index += 1
    } else {
      fail("\(option.name) needs \(expected)")
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
      invocation.socketPath = value
      return !value.isEmpty
    case .daemonUser:
      invocation.daemonUser = DaemonUser(user: value)
      return invocation.daemonUser != nil
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
