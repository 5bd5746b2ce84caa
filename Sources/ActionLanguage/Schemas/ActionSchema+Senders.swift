import JSON

extension ActionSchema {
  /// Who alone sends `action`: the innermost internal case on its path
  /// (``ActionCase/sentBy``), or `nil` when a client may send it.
  ///
  /// Reads only the case names along the action's JSON, in any form
  /// ``EnumCaseJSON`` reads, so it costs a few member lookups per level; JSON that
  /// leaves the schema is judged by the cases it matched up to there.
  public func internalSender(of action: JSONValue) -> InternalSender? {
    var schema = self
    var json = action
    var sender: InternalSender?
    while let (name, body) = EnumCaseJSON.split(json), let actionCase = schema.actionCase(named: name) {
      sender = actionCase.sentBy ?? sender
      guard let descent = actionCase.descent, let body,
        let inner = EnumCaseJSON.values(body, isValueName: { $0 == descent.codingKey })?[descent.codingKey]
      else { break }
      switch descent.value.kind {
      case .action(let reference):
        (schema, json) = (reference.schema, inner)
      case .identified(_, let element):
        guard let (_, elementAction) = ActionRenderer.element(inner) else { return sender }
        (schema, json) = (element.schema, elementAction)
      case .stack(let element, let operations):
        if let (_, elementAction) = ActionRenderer.element(inner) {
          (schema, json) = (element.schema, elementAction)
        } else {
          (schema, json) = (operations.schema, inner)
        }
      default:
        return sender
      }
    }
    return sender
  }
}
