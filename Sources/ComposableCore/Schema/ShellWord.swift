/// Quoting of command-line words, so that a rendered command can be pasted
/// back into a shell and reach the program as the same words.
enum ShellWord {
  /// `word`, single-quoted unless it is made only of characters a shell
  /// leaves alone (`extra` adds some, e.g. the brackets of a path).
  static func quoted(_ word: String, allowing extra: Set<Character> = []) -> String {
    let plain: Set<Character> = ["_", "-", ".", ",", ":", "/", "@", "%", "+", "="]
    let isPlain =
      !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || plain.contains($0) || extra.contains($0) }
    if isPlain { return word }
    return "'" + word.replacing("'", with: #"'\''"#) + "'"
  }
}
