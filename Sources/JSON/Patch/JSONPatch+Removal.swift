extension JSONPatch {
  /// Whether applying `operations` may have removed what `pointer` names,
  /// had it named something before: whether one of them
  ///
  /// - removes (or moves away) the location or one above it;
  /// - writes a location strictly above it (`add` or `replace`, or the
  ///   target of a `move` or `copy`);
  /// - removes an element at or before its index from an array on the way
  ///   to it, which shortens the array or shifts another element there;
  /// - inserts an element (`add`, `move` or `copy` to an index) at or before
  ///   its index into an array on the way to it, when the location is inside
  ///   that array's element: another element, which may lack it, is there
  ///   then. An insertion cannot remove the element itself: the array grows.
  ///
  /// When this is `false` and `pointer` names nothing after the patch, it
  /// named nothing before it either: the patch cannot have removed it. A
  /// token that could be an array index is taken for one, as
  /// ``scoped(_:to:newDocument:)`` does, which can only make this `true`.
  /// The daemon uses this to tell a subscription resumed on a part that
  /// went away (which reads as `null`) from one on a part that never
  /// existed (which is refused).
  public static func mayRemove(_ operations: [PatchOperation], at pointer: JSONPointer) -> Bool {
    operations.contains { operation in
      switch operation {
      case .remove(let path):
        return removes(path, pointer)
      case .move(let from, let path):
        return removes(from, pointer) || writes(path, pointer)
      case .add(let path, _), .copy(_, let path):
        return writes(path, pointer)
      case .replace(let path, _):
        return isStrictlyAbove(path, pointer)
      case .test:
        return false
      }
    }
  }

  /// Whether removing the value at `path` may remove `pointer`.
  private static func removes(_ path: JSONPointer, _ pointer: JSONPointer) -> Bool {
    path.isPrefix(of: pointer) || isArrayIndex(path, atOrBeforeIndexOn: pointer)
  }

  /// Whether adding a value at `path` (which replaces an object member, or
  /// inserts into an array) may remove `pointer`.
  private static func writes(_ path: JSONPointer, _ pointer: JSONPointer) -> Bool {
    isStrictlyAbove(path, pointer)
      || (path.tokens.count < pointer.tokens.count && isArrayIndex(path, atOrBeforeIndexOn: pointer))
  }

  private static func isStrictlyAbove(_ path: JSONPointer, _ pointer: JSONPointer) -> Bool {
    path.tokens.count < pointer.tokens.count && path.isPrefix(of: pointer)
  }

  /// Whether `path` names an element of an array on the way to `pointer`
  /// (the same parent as one of `pointer`'s locations) at an index at or
  /// before the one `pointer` goes through.
  private static func isArrayIndex(_ path: JSONPointer, atOrBeforeIndexOn pointer: JSONPointer) -> Bool {
    let depth = path.tokens.count
    guard depth > 0, depth <= pointer.tokens.count,
      path.tokens[..<(depth - 1)].elementsEqual(pointer.tokens[..<(depth - 1)]),
      let index = JSONPointer.arrayIndex(path.tokens[depth - 1]),
      let ours = JSONPointer.arrayIndex(pointer.tokens[depth - 1])
    else { return false }
    return index <= ours
  }
}
