import JSON

/// An action read from its command line (``ActionPath/read(path:arguments:schema:)``):
/// its JSON, and the command line as the log and the diffs show it.
public struct ParsedAction: Sendable {
  /// The action's JSON, as the action type's synthesized `Codable` writes it.
  public let json: JSONValue
  /// The command line in the form ``ActionPath/describe(_:schema:)`` gives
  /// for ``json``: the words as the client wrote them, in canonical form
  /// (`hello` for `"hello"`, trailing `null`s left out). `nil` when a word
  /// was a JSON literal (a payload such as `[Product]`, a nested action):
  /// such a value is canonical only once the action's own encoding has
  /// written it, and so is ``json``.
  public let summary: String?
}
