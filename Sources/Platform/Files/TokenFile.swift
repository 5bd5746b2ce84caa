import Glibc

/// A secret a client must give, kept in a file (`--token-file`): its first
/// line, at least 16 characters, so that it is long enough not to be
/// guessed and never the empty string an empty file would give.
public enum TokenFile {
  /// The shortest token accepted.
  public static let minimumLength = 16

  /// The token in the file at `path`.
  ///
  /// - Throws: a ``UsageError`` that says what the file must hold.
  public static func read(_ path: String) throws(UsageError) -> String {
    let bytes: [UInt8]
    do {
      bytes = try FileIO.readAll(path: path)
    } catch {
      throw UsageError("--token-file \(path) cannot be read: \(error)")
    }
    let line = bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }).first.map {
      String(decoding: $0, as: UTF8.self)
    }
    guard let line, line.count >= minimumLength else {
      throw UsageError("--token-file \(path) must start with a line of at least \(minimumLength) characters: the token")
    }
    return line
  }

  /// Whether `given` is `token`, compared in time that does not depend on
  /// where they differ.
  public static func matches(_ given: String, _ token: String) -> Bool {
    let left = Array(given.utf8)
    let right = Array(token.utf8)
    var difference = UInt8(left.count == right.count ? 0 : 1)
    for index in 0..<max(left.count, right.count) {
      difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
    }
    return difference == 0
  }
}
