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
/// Enums with raw values are untouched: they write a single value. The
/// shape is recognised, not the type: a hand-written `encode(to:)` that
/// writes one nested keyed container and nothing else is written the same
/// way (none in this package does), and a string where a keyed container is
/// asked for reads as a case without values when the container's keys know
/// its name.
///
/// `ActionLanguage` builds and reads actions' JSON with the same functions,
/// given the names of a case's values from its schema.
public enum EnumCaseJSON {
  /// The JSON of case `name` whose values are `values`, keyed as synthesized
  /// coding keys them (labels, `_0`, `_1`, …): the short form when it reads
  /// back as `values`. `isValueName` tells the case's value keys.
  public static func json(case name: String, values: JSONObject, isValueName: (String) -> Bool) -> JSONValue {
    if values.isEmpty { return .string(name) }
    if values.count == 1, let only = values["_0"] {
      let readsBack: Bool
      switch only {
      case .object(let members): readsBack = !members.allSatisfy { isValueName($0.key) }
      case .array: readsBack = !isValueName("_1")
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
  /// JSON after its name is `body`: `body` itself when it is the long form
  /// (an object whose keys all name values), the elements of an array as
  /// `_0`, `_1`, … for a case of several unlabelled values, else `body` as
  /// the only value `_0`. For a case without an unlabelled value (no `_0`),
  /// only the long form: nil for anything but an object.
  public static func values(_ body: JSONValue, isValueName: (String) -> Bool) -> JSONObject? {
    guard isValueName("_0") else {
      guard case .object(let members) = body else { return nil }
      return members
    }
    switch body {
    case .object(let members) where members.allSatisfy({ isValueName($0.key) }):
      return members
    case .array(let elements) where isValueName("_1"):
      return JSONObject(elements.enumerated().map { ("_\($0.offset)", $0.element) })
    default:
      return ["_0": body]
    }
  }

  /// The case name and the JSON after it of an enum value's JSON: a string
  /// is a case without values (`body` nil), an object of one member a case
  /// and its values; nil for anything else.
  public static func split(_ json: JSONValue) -> (name: String, body: JSONValue?)? {
    switch json {
    case .string(let name): return (name, nil)
    case .object(let members) where members.count == 1:
      guard let (name, body) = members.first else { return nil }
      return (name, body)
    default: return nil
    }
  }

  /// ``json(case:values:isValueName:)`` for a case whose value keys are
  /// `keyType`'s, as the encoder finds them.
  static func json(case name: String, values: JSONObject, keyType: any CodingKey.Type) -> JSONValue {
    json(case: name, values: values) { keyType.init(stringValue: $0) != nil }
  }

  /// ``values(_:isValueName:)`` for a case whose value keys are `keyType`'s,
  /// as the decoder finds them; nil when the case has no unlabelled value,
  /// whose keyed container is then read as any other.
  static func values(_ body: JSONValue, keyType: any CodingKey.Type) -> JSONObject? {
    guard keyType.init(stringValue: "_0") != nil else { return nil }
    return values(body) { keyType.init(stringValue: $0) != nil }
  }

  /// Whether `text`, found where `keyType`'s keyed container was asked for,
  /// is the short form of a case without values: a case named `text`.
  static func isCaseName(_ text: String, keyType: any CodingKey.Type) -> Bool {
    keyType.init(stringValue: text) != nil
  }
}
