/// Quoting of command-line words, so that a rendered command can be pasted
/// back into a shell and reach the program as the same words.
enum ShellWord {
  /// The punctuation a shell leaves alone in a word.
  private static let plain: Set<Character> = ["_", "-", ".", ",", ":", "/", "@", "%", "+", "="]
  /// The brackets of an action path's index, for ``quoted(_:allowing:)``.
  static let brackets: Set<Character> = ["[", "]"]

  /// `word`, single-quoted unless it is made only of characters a shell
  /// leaves alone (`extra` adds some, e.g. the brackets of a path).
  static func quoted(_ word: String, allowing extra: Set<Character> = []) -> String {
    if !word.isEmpty && isPlain(word, allowing: extra) { return word }
    return "'" + word.replacing("'", with: #"'\''"#) + "'"
  }

  private static func isPlain(_ word: String, allowing extra: Set<Character>) -> Bool {
    // Every action is described after it is reduced: an ASCII word, the usual
    // case, is checked byte by byte, without Unicode's character properties.
    var word = word
    let ascii = word.withUTF8 { bytes -> Bool? in
      for byte in bytes {
        guard byte < 0x80 else { return nil }
        let isAlphanumeric =
          (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
          || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        if isAlphanumeric { continue }
        let character = Character(Unicode.Scalar(byte))
        if !plain.contains(character) && !extra.contains(character) { return false }
      }
      return true
    }
    if let ascii { return ascii }
    return word.allSatisfy { $0.isLetter || $0.isNumber || plain.contains($0) || extra.contains($0) }
  }
}
