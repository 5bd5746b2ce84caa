extension JSONPatch {
  /// The part of a patch that a subscriber to the subtree at `pointer` needs,
  /// with paths relative to that subtree, so that it applies to the
  /// subscriber's copy of the sub-document.
  ///
  /// - Operations strictly inside the subtree are kept, their paths (and
  ///   `from`s) made relative: `/cart/items/3/count` seen from `/cart` is
  ///   `/items/3/count`. A `move` out of the subtree becomes a `remove`; a
  ///   `copy` out of it, operations elsewhere, and `test`s not strictly inside
  ///   the subtree are dropped.
  /// - An operation that changes what `pointer` itself designates replaces the
  ///   subscriber's whole view: the result is then a single
  ///   `{"op":"replace","path":"","value":…}` carrying the subtree's value in
  ///   `newDocument` (the document after the whole patch). That is any write
  ///   at `pointer` or an ancestor of it (including the root), a `move` or
  ///   `copy` into the subtree from outside it, and an insertion or removal in
  ///   an array on the way to `pointer` at or before its index, which shifts
  ///   the element `pointer` names (`remove /items/1` changes what
  ///   `/items/3` is). A token that could be an array index is treated as one,
  ///   so this may replace the view when an object member named like an
  ///   index changed: correct, if larger than needed.
  /// - If such an operation left nothing at `pointer` in `newDocument`, the
  ///   result is `nil`: the subscribed location no longer exists, and the
  ///   caller tells the subscriber so rather than sending a patch.
  ///
  /// The result is `[]` when nothing in the subtree changed. A whole-view
  /// `replace` may carry a value equal to the subscriber's current one (when
  /// an ancestor was replaced by an equal subtree); a caller that keeps the
  /// previous value can compare and skip it.
  ///
  /// For the root pointer the operations are returned unchanged.
  public static func scoped(
    _ operations: [PatchOperation], to pointer: JSONPointer, newDocument: JSONValue
  ) -> [PatchOperation]? {
    guard !pointer.isRoot else { return operations }
    var result: [PatchOperation] = []
    for operation in operations {
      switch Scope(pointer).classify(operation) {
      case .outside:
        continue
      case .inside(let rebased):
        result.append(rebased)
      case .replacesView:
        return pointer.value(in: newDocument).map { [.replace(path: .root, value: $0)] }
      }
    }
    return result
  }
}

/// How one operation relates to a subscribed subtree.
private struct Scope {
  enum Effect {
    /// Leaves the subtree alone.
    case outside
    /// Changes the subtree only from within: the operation, rebased.
    case inside(PatchOperation)
    /// Changes what the pointer designates: the whole view is replaced.
    case replacesView
  }

  /// Where an operation location lies relative to the subtree.
  enum Location {
    case outside
    /// Strictly inside, with the path relative to the subtree.
    case inside(JSONPointer)
    /// At the pointer, on an ancestor, or shifting an array on the way.
    case affectsView
  }

  let pointer: JSONPointer

  init(_ pointer: JSONPointer) {
    self.pointer = pointer
  }

  func classify(_ operation: PatchOperation) -> Effect {
    switch operation {
    case .add(let path, let value):
      switch locate(path, shifts: true) {
      case .outside: return .outside
      case .inside(let relative): return .inside(.add(path: relative, value: value))
      case .affectsView: return .replacesView
      }
    case .remove(let path):
      switch locate(path, shifts: true) {
      case .outside: return .outside
      case .inside(let relative): return .inside(.remove(path: relative))
      case .affectsView: return .replacesView
      }
    case .replace(let path, let value):
      switch locate(path, shifts: false) {
      case .outside: return .outside
      case .inside(let relative): return .inside(.replace(path: relative, value: value))
      case .affectsView: return .replacesView
      }
    case .test(let path, let value):
      guard case .inside(let relative) = locate(path, shifts: false) else { return .outside }
      return .inside(.test(path: relative, value: value))
    case .move(let from, let path):
      switch (locate(from, shifts: true), locate(path, shifts: true)) {
      case (.affectsView, _), (_, .affectsView), (.outside, .inside):
        return .replacesView
      case (.inside(let relativeFrom), .inside(let relativePath)):
        return .inside(.move(from: relativeFrom, path: relativePath))
      case (.inside(let relativeFrom), .outside):
        return .inside(.remove(path: relativeFrom))
      case (.outside, .outside):
        return .outside
      }
    case .copy(let from, let path):
      switch (locate(from, shifts: false), locate(path, shifts: true)) {
      case (_, .outside):
        return .outside
      case (.inside(let relativeFrom), .inside(let relativePath)):
        return .inside(.copy(from: relativeFrom, path: relativePath))
      case (_, .inside), (_, .affectsView):
        return .replacesView
      }
    }
  }

  /// Where `path` lies. `shifts`: an operation that inserts or removes there,
  /// moving later array elements.
  func locate(_ path: JSONPointer, shifts: Bool) -> Location {
    let depth = path.tokens.count
    if depth > pointer.tokens.count {
      guard let relative = path.relative(to: pointer) else { return .outside }
      return .inside(relative)
    }
    if path.isPrefix(of: pointer) { return .affectsView }
    // A sibling of the pointer or of one of its ancestors: an insertion or a
    // removal at or before the pointer's index in an array shifts it.
    guard shifts, path.tokens[..<(depth - 1)].elementsEqual(pointer.tokens[..<(depth - 1)]),
      let ours = JSONPointer.arrayIndex(pointer.tokens[depth - 1])
    else { return .outside }
    let theirs = path.tokens[depth - 1]
    if theirs == "-" { return .affectsView }
    guard let index = JSONPointer.arrayIndex(theirs) else { return .outside }
    return index <= ours ? .affectsView : .outside
  }
}
