import JSON

/// The JSON form of a listed action with a placeholder where each value goes,
/// so that a client in any language can build the action from the `actions`
/// list without knowing how Swift encodes enums.
///
/// A placeholder is an object with one member: `{"$argument":0}` stands for
/// the entry's first argument, `{"$id":0}` for the first element id its path
/// names. No action case or field is named with a `$`, so a placeholder
/// cannot be mistaken for part of an action. Filling replaces each
/// placeholder with the JSON of its value (docs/PROTOCOL.md, "Actions as JSON"):
///
/// ```
/// {"cart":{"addItem":{"$argument":0}}}   with 3   →   {"cart":{"addItem":3}}
/// ```
public enum ActionTemplate {
  /// The member naming an argument's placeholder.
  public static let argumentKey = "$argument"
  /// The member naming an element id's placeholder.
  public static let idKey = "$id"

  /// The placeholder of the argument at `index`.
  public static func argument(_ index: Int) -> JSONValue { .object([argumentKey: .int(index)]) }

  /// The placeholder of the element id at `index`.
  public static func id(_ index: Int) -> JSONValue { .object([idKey: .int(index)]) }

  /// `template` with each placeholder replaced by its value from `arguments`
  /// or `ids`; a placeholder without a value is left as it is.
  public static func filled(_ template: JSONValue, arguments: [JSONValue], ids: [JSONValue]) -> JSONValue {
    switch template {
    case .object(let members):
      if members.count == 1, let (key, value) = members.first, case .int(let index) = value {
        let values = key == argumentKey ? arguments : key == idKey ? ids : []
        if values.indices.contains(index) { return values[index] }
      }
      return .object(members.mapValues { Self.filled($0, arguments: arguments, ids: ids) })
    case .array(let elements):
      return .array(elements.map { Self.filled($0, arguments: arguments, ids: ids) })
    default:
      return template
    }
  }
}
