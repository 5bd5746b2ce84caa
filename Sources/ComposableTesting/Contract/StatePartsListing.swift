import ComposableCore
import JSON

/// Whether a state that lists its parts (``StateParts``) lists exactly the
/// members its encoding writes: the daemon publishes the members the list
/// names, so a member left out of it would never change in what clients
/// see, and one the encoding does not write would be published all the
/// same.
///
/// Checked at the state and at each part that lists parts of its own: the
/// keys listed there must be those of the object the encoding writes there,
/// but the `view` a ``PublishesView`` state adds; and no part may differ
/// from itself.
enum StatePartsListing {
  /// What is wrong with `state`'s list of parts; nil when it is right, or
  /// when the state lists none.
  static func problem<State: Encodable>(with state: State) -> String? {
    guard let parted = state as? any StateParts & Encodable else { return nil }
    return problem(listing: parted)
  }

  private static func problem<Parted: StateParts & Encodable>(listing state: Parted) -> String? {
    let lister = PartLister()
    var copy = state
    do {
      try copy.takeParts(from: state, lister)
    } catch {
      return "\(Parted.self).takeParts(from:_:) threw: \(error)"
    }
    if !lister.differed.isEmpty {
      return "\(Parted.self).takeParts(from:_:) says these parts differ from themselves: "
        + lister.differed.map { JSONPointer(tokens: $0).description }.joined(separator: ", ")
    }
    let full: JSONValue
    do {
      full = try CanonicalJSON.value(of: state)
    } catch {
      return "\(Parted.self) does not encode: \(error)"
    }
    let root: [(path: [String], publishesView: Bool)] = [([], JSONValueEncoder.publishesView(Parted.self))]
    for (place, publishesView) in root + lister.nested {
      let pointer = JSONPointer(tokens: place)
      guard case .object(let object)? = pointer.value(in: full) else {
        return "\(Parted.self) lists parts at \(place.isEmpty ? "its root" : "\"\(pointer)\""), "
          + "where its encoding writes no object"
      }
      let listed = Set(
        lister.listed.filter { $0.count == place.count + 1 && Array($0.prefix(place.count)) == place }.compactMap(
          \.last))
      let written = Set(object.keys).subtracting(publishesView ? [PublishesViewKey.name] : [])
      if listed != written {
        let location = place.isEmpty ? "" : " at \"\(pointer)\""
        var lines = ["\(Parted.self) lists parts\(location) that are not the members its encoding writes:"]
        let missing = written.subtracting(listed).sorted()
        let extra = listed.subtracting(written).sorted()
        if !missing.isEmpty { lines.append("  written but not listed: \(missing.joined(separator: ", "))") }
        if !extra.isEmpty { lines.append("  listed but not written: \(extra.joined(separator: ", "))") }
        return lines.joined(separator: "\n")
      }
    }
    return nil
  }
}

/// The paths of the parts a state hands a visitor, going down into those
/// that list parts of their own.
private final class PartLister: StatePartsVisitor {
  var listed: [[String]] = []
  var differed: [[String]] = []
  /// The paths of the parts gone down into, and whether each publishes a
  /// view.
  var nested: [(path: [String], publishesView: Bool)] = []
  private var path: [String] = []

  func visit<Part: Equatable & Encodable>(_ key: String, _ part: Part, differed: Bool) {
    visitNil(key, differed: differed)
  }

  func visitNil(_ key: String, differed: Bool) {
    listed.append(path + [key])
    if differed { self.differed.append(path + [key]) }
  }

  func visitParts<Part: StateParts & Equatable & Encodable>(
    _ key: String, _ part: inout Part, from current: Part, differed: Bool
  ) throws {
    listed.append(path + [key])
    if differed { self.differed.append(path + [key]) }
    path.append(key)
    defer { path.removeLast() }
    nested.append((path, JSONValueEncoder.publishesView(Part.self)))
    try part.takeParts(from: current, self)
  }
}
