import JSON

extension ActionCase {
  /// Whether `key` is the coding key of one of this case's values.
  func isValueName(_ key: String) -> Bool {
    arguments.contains { $0.codingKey == key }
  }

  /// This case's JSON holding `values`, keyed by their coding keys, as every
  /// enum is JSON (``EnumCaseJSON``): `"name"` without values,
  /// `{"name":value}` for one unlabelled value.
  func json(values: JSONObject) -> JSONValue {
    EnumCaseJSON.json(case: name, values: values, isValueName: isValueName)
  }
}

extension ActionSchema {
  /// The case of `json` and its values keyed by their coding keys, reading
  /// every form ``EnumCaseJSON`` reads; nil when `json` is not one of this
  /// schema's cases.
  func match(_ json: JSONValue) -> (actionCase: ActionCase, values: JSONObject)? {
    guard let (name, body) = EnumCaseJSON.split(json), let actionCase = actionCase(named: name) else { return nil }
    guard let body else { return (actionCase, [:]) }
    guard let values = EnumCaseJSON.values(body, isValueName: actionCase.isValueName) else { return nil }
    return (actionCase, values)
  }
}
