/// A string enum written as one of its raw values (`tabSelected products`).
public struct EnumerationSchema: Hashable, Sendable {
  /// The enum's name, e.g. `AppTab`.
  public let typeName: String
  /// Every raw value, in declaration order.
  public let rawValues: [String]

  /// The schema of `Enumeration`.
  public init<Enumeration: RawRepresentable & CaseIterable>(_ type: Enumeration.Type)
  where Enumeration.RawValue == String {
    self.init(typeName: TypeName.of(Enumeration.self), rawValues: Enumeration.allCases.map(\.rawValue))
  }

  init(typeName: String, rawValues: [String]) {
    self.typeName = typeName
    self.rawValues = rawValues
  }

  /// The raw value `word` names: exactly, or else ignoring case when that is
  /// unambiguous (`history` for `History`).
  func rawValue(matching word: String) -> String? {
    if rawValues.contains(word) { return word }
    let matches = rawValues.filter { $0.lowercased() == word.lowercased() }
    return matches.count == 1 ? matches[0] : nil
  }
}
