/// One listed path with what suggestions and tests need besides the entry.
struct PathListing {
  /// The path as `tcactl actions` shows it.
  let entry: ActionPathEntry
  /// The case and field names along the path, from the walked schema down.
  let stepNames: [String]
  /// A valid action for the path, or `nil` for a recursion marker.
  let sample: JSONValue?
}

/// Walks a schema depth-first and lists every path to an action, stopping
/// where an action type contains itself.
struct PathWalker {
  private var listings: [PathListing] = []

  /// Every path below `schema`, each prefixed with `prefix`.
  static func listings(of schema: ActionSchema, prefix: String = "") -> [PathListing] {
    var walker = PathWalker()
    walker.walk(schema, prefix: prefix, stepNames: [], frames: [], visiting: [])
    return walker.listings
  }

  private mutating func walk(
    _ schema: ActionSchema, prefix: String, stepNames: [String], frames: [PathFrame], visiting: Set<ObjectIdentifier>
  ) {
    for actionCase in schema.cases {
      let path = prefix.isEmpty ? actionCase.name : "\(prefix).\(actionCase.name)"
      let names = stepNames + [actionCase.name]
      guard let descent = actionCase.descent else {
        let members = JSONObject(Dictionary(uniqueKeysWithValues: actionCase.arguments.map { ($0.codingKey, $0.value.sample) }))
        listings.append(
          PathListing(
            entry: ActionPathEntry(
              path: path, arguments: actionCase.arguments.map { .init(name: $0.name, type: $0.value.usage) },
              summary: actionCase.summary),
            stepNames: names, sample: PathFrame.wrap(.object([actionCase.name: .object(members)]), in: frames)))
        continue
      }
      let inner = frames + [.descent(name: actionCase.name, key: descent.codingKey)]
      switch descent.value.kind {
      case .action(let reference):
        descend(into: reference, path: path, stepNames: names, frames: inner, visiting: visiting)
      case .identified(let id, let element):
        descend(
          into: element, path: "\(path)[<id: \(id.typeName)>]", stepNames: names,
          frames: inner + [.element(id: id.sample)], visiting: visiting)
      case .binding(let binding):
        for field in binding.fields {
          let binding = JSONValue.object(["field": .string(field.name), "value": field.value.sample])
          listings.append(
            PathListing(
              entry: ActionPathEntry(
                path: "\(path).\(field.name)", arguments: [.init(name: "value", type: field.value.usage)],
                summary: field.summary),
              stepNames: names + [field.name], sample: PathFrame.wrap(binding, in: inner)))
        }
      default:
        break
      }
    }
  }

  private mutating func descend(
    into reference: ActionSchemaReference, path: String, stepNames: [String], frames: [PathFrame],
    visiting: Set<ObjectIdentifier>
  ) {
    guard !visiting.contains(reference.typeID) else {
      let entry = ActionPathEntry(
        path: "\(path).<…>", arguments: [], summary: "The actions of \(reference.typeName) again (recursive)")
      listings.append(PathListing(entry: entry, stepNames: stepNames, sample: nil))
      return
    }
    walk(
      reference.schema, prefix: path, stepNames: stepNames, frames: frames,
      visiting: visiting.union([reference.typeID]))
  }
}

extension ActionSchema {
  /// Every action path below this schema with its arguments, depth-first in
  /// declaration order: what `tcactl actions` lists. Collections show their id
  /// type (`products.rows[<id: Int>].addToCart.plusButtonTapped`); an action
  /// type that contains itself is listed once, then marked `<…>`.
  public var allPaths: [ActionPathEntry] {
    PathWalker.listings(of: self).map(\.entry)
  }

  /// A valid action for every path of ``allPaths`` (but recursion markers),
  /// built from sample values.
  public var samples: [ActionSample] {
    PathWalker.listings(of: self).compactMap { listing in
      listing.sample.map { ActionSample(entry: listing.entry, action: $0) }
    }
  }
}
