/// Reads a command line word by word: options, their values and positional
/// arguments, for the programs' own parsers to act on.
///
/// An option is written `--name value` or `--name=value` (or by a short
/// spelling, `-n value`); an option without a value is a flag. Options may
/// be repeated (each occurrence is read) and come anywhere; `--` ends them,
/// and `-` alone is positional. What an option's value must be, which are
/// required and what `--help` does are the program's to decide: the parser
/// only finds the words.
public struct ArgumentParser {
  /// An option a program takes.
  public struct Option: Hashable, Sendable {
    /// Every way of writing it (`--follow`, `-f`); the first is its name in
    /// messages.
    public let spellings: [String]
    /// What its value is ("a path"), said when the value is missing; nil for
    /// a flag, which takes none.
    public let value: String?

    public var name: String { spellings[0] }

    public init(_ spellings: String..., value: String? = nil) {
      self.spellings = spellings
      self.value = value
    }

    public init(spellings: [String], value: String?) {
      self.spellings = spellings
      self.value = value
    }
  }

  /// One thing the command line says.
  public enum Argument: Equatable, Sendable {
    /// An option, by its ``Option/name``, with its value if it takes one.
    case option(String, value: String?)
    case positional(String)
    /// A word that looks like an option (`--name`, `-x`, the `=value` left
    /// off) but names none: what to say of it (a guess at the intended one,
    /// say) is the program's.
    case unknownOption(String)
  }

  private let optionsBySpelling: [String: Option]
  private var remaining: ArraySlice<String>
  private var optionsEnded = false

  /// A parser of `arguments` (without the program name) that knows `options`.
  public init(_ arguments: [String], options: [Option]) {
    var bySpelling: [String: Option] = [:]
    for option in options {
      for spelling in option.spellings { bySpelling[spelling] = option }
    }
    self.optionsBySpelling = bySpelling
    self.remaining = arguments[...]
  }

  /// The word ``next(shortOptionsArePositional:)`` reads next, if any.
  public var nextWord: String? { remaining.first }

  /// Reads the next option or positional argument; nil at the end.
  ///
  /// With `shortOptionsArePositional`, a word starting with a single `-` is
  /// positional (for arguments that may be negative numbers or the like).
  ///
  /// - Throws: ``UsageError`` for an option missing its value ("--socket
  ///   needs a path"), or a flag given one. The word is consumed, so a caller
  ///   that collects mistakes may go on reading.
  public mutating func next(shortOptionsArePositional: Bool = false) throws(UsageError) -> Argument? {
    while let word = remaining.popFirst() {
      if optionsEnded || word == "-" || !word.hasPrefix("-") || (shortOptionsArePositional && !word.hasPrefix("--")) {
        return .positional(word)
      }
      if word == "--" {
        optionsEnded = true
        continue
      }
      var spelling = word
      var inline: String?
      if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
        spelling = String(word[..<equals])
        inline = String(word[word.index(after: equals)...])
      }
      guard let option = optionsBySpelling[spelling] else { return .unknownOption(spelling) }
      guard let expected = option.value else {
        if inline != nil { throw UsageError("\(option.name) takes no value; got '\(word)'") }
        return .option(option.name, value: nil)
      }
      if let inline { return .option(option.name, value: inline) }
      guard let value = remaining.popFirst() else { throw UsageError("\(option.name) needs \(expected)") }
      return .option(option.name, value: value)
    }
    return nil
  }
}
