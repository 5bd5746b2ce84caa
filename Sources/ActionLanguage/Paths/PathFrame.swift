import JSON

/// One level of nesting around an action's JSON, from the root down: a case
/// carrying a nested action, or a collection element.
enum PathFrame {
  /// `{name: inner}`: a case whose one value is the nested action, keyed
  /// `key` (``EnumCaseJSON``).
  case descent(name: String, key: String)
  /// `{"element": {"id": id, "action": inner}}`: an `IdentifiedAction`.
  case element(id: JSONValue)

  /// `inner` wrapped in `frames`, the outermost first.
  static func wrap(_ inner: JSONValue, in frames: [PathFrame]) -> JSONValue {
    frames.reversed().reduce(inner) { json, frame in
      switch frame {
      case .descent(let name, let key): EnumCaseJSON.json(case: name, values: [key: json]) { $0 == key }
      case .element(let id): .object(["element": .object(["id": id, "action": json])])
      }
    }
  }
}
