import JSON

/// One listed path with what suggestions and tests need besides the entry.
struct PathListing {
  /// What a listed path ends in: a case's values, a binding's field, or the
  /// mark of a recursive action type.
  enum Leaf {
    case actionCase(ActionCase)
    case field(BindingSchema.Field)
    case recursion
  }

  /// The path as `tcactl actions` shows it.
  let entry: ActionPathEntry
  /// The case and field names along the path, from the walked schema down.
  let stepNames: [String]
  /// What the path ends in.
  let leaf: Leaf
  /// The nesting around the leaf's JSON, element ids as placeholders.
  let frames: [PathFrame]

  /// A valid action for the path, or `nil` for a recursion marker.
  var sample: JSONValue? { entry.example }
}

/// Walks a schema depth-first and lists every path to an action, stopping
/// where an action type contains itself.
struct PathWalker {
  /// Where the walk is: the path so far and what every entry below inherits.
  private struct Position {
    var path: String
    var stepNames: [String]
    /// The nesting around the action's JSON, element ids as placeholders.
    var frames: [PathFrame]
    var ids: [ActionPathEntry.Argument]
    /// The innermost internal case on the way, which entries below inherit.
    var sentBy: InternalSender?
    var visiting: Set<ObjectIdentifier>

    /// The position of `actionCase` below this one.
    func entering(_ actionCase: ActionCase) -> Position {
      var next = self
      next.path = path.isEmpty ? actionCase.name : "\(path).\(actionCase.name)"
      next.stepNames.append(actionCase.name)
      next.sentBy = actionCase.sentBy ?? sentBy
      return next
    }
  }

  private var listings: [PathListing] = []

  /// Every path below `schema`, each prefixed with `prefix`.
  static func listings(of schema: ActionSchema, prefix: String = "") -> [PathListing] {
    var walker = PathWalker()
    walker.walk(schema, at: Position(path: prefix, stepNames: [], frames: [], ids: [], sentBy: nil, visiting: []))
    return walker.listings
  }

  private mutating func walk(_ schema: ActionSchema, at position: Position) {
    for actionCase in schema.cases {
      var here = position.entering(actionCase)
      guard let descent = actionCase.descent else {
        let members = actionCase.arguments.enumerated().map { index, argument in
          (key: argument.codingKey, value: ActionTemplate.argument(index))
        }
        append(
          here, json: actionCase.json(values: JSONObject(members)), summary: actionCase.summary,
          arguments: actionCase.arguments.map { Self.argument($0.codingKey, $0.value) }, leaf: .actionCase(actionCase))
        continue
      }
      here.frames.append(.descent(name: actionCase.name, key: descent.codingKey))
      switch descent.value.kind {
      case .action(let reference):
        descend(into: reference, at: here)
      case .identified(let id, let element):
        here.frames.append(.element(id: ActionTemplate.id(here.ids.count)))
        here.ids.append(Self.argument(actionCase.name, id))
        here.path += "[<id: \(id.typeName)>]"
        descend(into: element, at: here)
      case .stack(let element, let operations):
        descend(into: operations, at: here)
        here.frames.append(.element(id: ActionTemplate.id(here.ids.count)))
        here.ids.append(Self.argument(actionCase.name, .int))
        here.path += "[<id: Int>]"
        descend(into: element, at: here)
      case .binding(let binding):
        for field in binding.fields {
          var fieldPosition = here
          fieldPosition.path += ".\(field.name)"
          fieldPosition.stepNames.append(field.name)
          append(
            fieldPosition, json: .object(["field": .string(field.name), "value": ActionTemplate.argument(0)]),
            summary: field.summary, arguments: [Self.argument("value", field.value)], leaf: .field(field))
        }
      default:
        break
      }
    }
  }

  private mutating func descend(into reference: ActionSchemaReference, at position: Position) {
    guard !position.visiting.contains(reference.typeID) else {
      var marker = position
      marker.path += ".<…>"
      listings.append(
        PathListing(
          entry: ActionPathEntry(
            path: marker.path, arguments: [], ids: marker.ids, json: .null,
            summary: "The actions of \(reference.typeName) again (recursive)", sentBy: marker.sentBy),
          stepNames: marker.stepNames, leaf: .recursion, frames: marker.frames))
      return
    }
    var inside = position
    inside.visiting.insert(reference.typeID)
    walk(reference.schema, at: inside)
  }

  /// Lists the action at `position` whose innermost JSON is `json`.
  private mutating func append(
    _ position: Position, json: JSONValue, summary: String, arguments: [ActionPathEntry.Argument],
    leaf: PathListing.Leaf
  ) {
    let entry = ActionPathEntry(
      path: position.path, arguments: arguments, ids: position.ids, json: PathFrame.wrap(json, in: position.frames),
      summary: summary, sentBy: position.sentBy)
    listings.append(PathListing(entry: entry, stepNames: position.stepNames, leaf: leaf, frames: position.frames))
  }

  private static func argument(_ name: String, _ value: ValueSchema) -> ActionPathEntry.Argument {
    ActionPathEntry.Argument(name: name, type: value.usage, example: value.sample)
  }
}

extension ActionSchema {
  /// Every action path below this schema with its arguments and JSON form,
  /// depth-first in declaration order, internal ones marked: what the
  /// `actions` message lists. Collections show their id type
  /// (`products.rows[<id: Int>].addToCart.plusButtonTapped`); an action type
  /// that contains itself is listed once, then marked `<…>`.
  public var allPaths: [ActionPathEntry] {
    PathWalker.listings(of: self).map(\.entry)
  }

  /// The paths of ``allPaths`` that a client may send.
  public var clientPaths: [ActionPathEntry] {
    allPaths.filter { !$0.isInternal }
  }
}
