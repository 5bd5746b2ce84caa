extension CanonicalJSON {
  /// The canonical encoding of `value` as a string, for printing and messages.
  public static func text(_ value: JSONValue) -> String {
    String(decoding: encode(value), as: UTF8.self)
  }
}
