/// How an enum case is JSON: the one definition, used by
/// ``JSONValueEncoder`` and ``JSONValueDecoder`` for every enum whose
/// `Codable` conformance Swift synthesizes, so that an app's state and
/// actions read as a person would write them (docs/PROTOCOL.md,
/// "Enumerations as JSON"):
///
/// | case | JSON |
/// |---|---|
/// | `idle` (no values) | `"idle"` |
/// | `failed(String)` (one unlabelled value) | `{"failed":"…"}` |
/// | `pair(Int, String)` (several values, all unlabelled) | `{"pair":[1,"x"]}` |
/// | `element(id: 3, action: …)` (labelled values) | `{"element":{"action":…,"id":3}}` |
///
/// Synthesized coding writes a case as a keyed container holding one nested
/// keyed container named after the case, whose keys are the values' labels
/// (`_0`, `_1`, … for unlabelled ones): `{"failed":{"_0":"…"}}`. The encoder
/// writes that shape in the short forms above, and the decoder reads both,
/// so JSON written before this mapping (journals, scripts) still decodes.
///
/// The short form is written only where reading it back is unambiguous;
/// otherwise the case keeps its long form, which always reads back:
/// a single unlabelled value that is itself an object whose keys are all
/// names of the case's values (an empty object, or an object with a `_0`
/// member) is written `{"case":{"_0":…}}`, and so is an array for a case
/// whose other unlabelled values were left out (`nil` optionals). An
/// optional value that is `nil` is `null` (`{"failed":null}`), or left out
/// where the encoder leaves out `nil` members, so `tag(nil)` can be `"tag"`.
///
/// Enums with raw values and hand-written coding are untouched: they do not
/// write a nested keyed container.
enum EnumCaseJSON {
  /// The JSON of case `name` whose values are `values`, as the keys of
  /// `keyType` name them: the short form when it reads back as `values`.
  static func json(case name: String, values: JSONObject, keyType: any CodingKey.Type) -> JSONValue {
    if values.isEmpty { return .string(name) }
    if values.count == 1, let only = values["_0"] {
      let readsBack: Bool
      switch only {
      case .object(let members): readsBack = !members.allSatisfy { keyType.init(stringValue: $0.key) != nil }
      case .array: readsBack = keyType.init(stringValue: "_1") == nil
      default: readsBack = true
      }
      return .object([name: readsBack ? only : .object(values)])
    }
    if values.count >= 2, let elements = unlabelled(values) { return .object([name: .array(elements)]) }
    return .object([name: .object(values)])
  }

  /// The values of `values` when they are exactly `_0`, `_1`, … in order.
  private static func unlabelled(_ values: JSONObject) -> JSONArray? {
    var elements: JSONArray = []
    for index in 0..<values.count {
      guard let value = values["_\(index)"] else { return nil }
      elements.append(value)
    }
    return elements
  }

  /// The values, keyed as synthesized coding reads them, of a case whose
  /// JSON after its name is `json` and whose values' keys are `keyType`'s:
  /// `json` itself when it is the long form (an object whose keys all name
  /// values), the elements of an array as `_0`, `_1`, … for a case of
  /// several unlabelled values, else `json` as the only value `_0`.
  ///
  /// Only for a case that has an unlabelled value (`keyType` knows `_0`);
  /// the others have only the long form.
  static func values(_ json: JSONValue, keyType: any CodingKey.Type) -> JSONObject? {
    guard keyType.init(stringValue: "_0") != nil else { return nil }
    switch json {
    case .object(let members) where members.allSatisfy({ keyType.init(stringValue: $0.key) != nil }):
      return members
    case .array(let elements) where keyType.init(stringValue: "_1") != nil:
      return JSONObject(elements.enumerated().map { ("_\($0.offset)", $0.element) })
    default:
      return ["_0": json]
    }
  }

  /// Whether `text`, found where `keyType`'s keyed container was asked for,
  /// is the short form of a case without values: a case named `text`.
  static func isCaseName(_ text: String, keyType: any CodingKey.Type) -> Bool {
    keyType.init(stringValue: text) != nil
  }
}
