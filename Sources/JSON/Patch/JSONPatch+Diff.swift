extension JSONPatch {
  /// A patch that turns `old` into `new`: `apply(diff(from: old, to: new), to: old) == new`.
  ///
  /// The patch follows the change, not the document:
  ///
  /// - equal values give no operation;
  /// - objects are compared member by member: a `remove` for each member that
  ///   went away, an `add` for each new one, and the same comparison for each
  ///   member in both (in the UTF-8 order of the keys, so the output is
  ///   deterministic);
  /// - scalars that differ, and values that change type, give one `replace`;
  /// - arrays first set aside their longest equal prefix and suffix. If every
  ///   remaining element of both arrays is an object with an `"id"` member
  ///   holding a scalar, unique among those elements, elements are matched by
  ///   id: `remove`s of the vanished ids (highest index first), the fewest
  ///   `move`s that put the surviving ids in their new order, `add`s of the new
  ///   ids at their final indices (lowest first), then the changes inside each
  ///   surviving element at its final index. Otherwise elements are compared
  ///   position by position, and the surplus is removed (from the end) or added
  ///   (by index, never `-`, so that every path names one position).
  /// - when that would touch more elements (each element added, removed or
  ///   moved counted once, and once more if its contents also changed,
  ///   however many operations that change takes) than the new array has
  ///   (and more than one), a single `replace`
  ///   of the whole array is sent instead: clearing 10,000 items is one
  ///   operation, not 10,000, and changing two members of a one-element
  ///   array stays two small operations; and an element (an object) whose
  ///   changes take more operations than it has members is replaced whole.
  ///
  /// So inserting, removing or changing one element of a 10,000-element
  /// identified array is one operation, and a reordering costs one `move` per
  /// element that left the longest run of elements kept in order.
  ///
  /// Work is about linear in the size of the documents: an unchanged subtree
  /// is compared once, only the path down to a change is revisited, matching
  /// by id uses dictionaries (O(n log n) more for reordered arrays), and large
  /// arrays are never copied.
  public static func diff(from old: JSONValue, to new: JSONValue) -> [PatchOperation] {
    var differ = Differ()
    differ.diff(old, new)
    return differ.operations
  }
}

extension JSONPatch {
  /// ``diff(from:to:)`` of a document in which only the members at the
  /// paths of `changes` went from `old` to `new` (nil: absent), everything
  /// else staying the same: the operations of each change, in the order
  /// of the paths, each compared token by token in the order of the keys
  /// (a path listed twice counts once). What a document that is changed in
  /// place, member by member, gives its subscribers.
  ///
  /// A path is a list of object member names from the root; no path may
  /// lead into another listed with it, nor into an array.
  public static func diff(changes: [(path: [String], old: JSONValue?, new: JSONValue?)]) -> [PatchOperation] {
    var differ = Differ()
    var previous: [String]?
    let ordered = changes.count > 1 ? changes.sorted { precedes($0.path, $1.path) } : changes
    for change in ordered where change.path != previous {
      previous = change.path
      switch (change.old, change.new) {
      case (nil, nil):
        continue
      case (nil, let added?):
        differ.operations.append(.add(path: JSONPointer(tokens: change.path), value: added))
      case (_?, nil):
        differ.operations.append(.remove(path: JSONPointer(tokens: change.path)))
      case (let before?, let after?):
        differ.path = change.path
        differ.diff(before, after)
      }
    }
    return differ.operations
  }

  /// Whether `left` comes before `right`: by their first token that
  /// differs, in the order of an object's keys; a path before the longer
  /// ones it begins.
  private static func precedes(_ left: [String], _ right: [String]) -> Bool {
    for (leftToken, rightToken) in zip(left, right) {
      let order = JSONObject.order(leftToken, rightToken)
      if order != 0 { return order < 0 }
    }
    return left.count < right.count
  }
}

/// The state of one diff: the operations so far and the path being compared.
private struct Differ {
  var operations: [PatchOperation] = []
  /// The tokens of the location being compared.
  var path: [String] = []

  var pointer: JSONPointer { JSONPointer(tokens: path) }

  func pointer(index: Int) -> JSONPointer { JSONPointer(tokens: path + [String(index)]) }

  mutating func diff(_ old: JSONValue, _ new: JSONValue) {
    switch (old, new) {
    case (.object(let old), .object(let new)):
      diffObjects(old, new)
    case (.array(let old), .array(let new)):
      diffArrays(old, new)
    default:
      if old != new { operations.append(.replace(path: pointer, value: new)) }
    }
  }

  // MARK: Objects

  mutating func diffObjects(_ old: JSONObject, _ new: JSONObject) {
    // Both are sorted by key: one walk side by side finds every member
    // removed, added or changed, in key order.
    var oldIndex = 0
    var newIndex = 0
    while oldIndex < old.count || newIndex < new.count {
      let order =
        oldIndex == old.count ? 1 : newIndex == new.count ? -1 : JSONObject.order(old[oldIndex].key, new[newIndex].key)
      if order < 0 {
        operations.append(.remove(path: JSONPointer(tokens: path + [old[oldIndex].key])))
        oldIndex += 1
      } else if order > 0 {
        operations.append(.add(path: JSONPointer(tokens: path + [new[newIndex].key]), value: new[newIndex].value))
        newIndex += 1
      } else {
        if old[oldIndex].value != new[newIndex].value {
          path.append(new[newIndex].key)
          diff(old[oldIndex].value, new[newIndex].value)
          path.removeLast()
        }
        oldIndex += 1
        newIndex += 1
      }
    }
  }

  // MARK: Arrays

  mutating func diffArrays(_ old: JSONArray, _ new: JSONArray) {
    let shorter = min(old.count, new.count)
    // Chunks the two arrays share are passed over without a look inside.
    let prefix = old.commonPrefixCount(with: new)
    if prefix == old.count && prefix == new.count { return }
    let suffix = old.commonSuffixCount(with: new, limit: shorter - prefix)

    let start = operations.count
    // Elements matched between the arrays, by ascending new index; their
    // contents are compared once every structural operation is out.
    var pairs: [(old: Int, new: Int)] = []
    let oldRange = prefix..<old.count - suffix
    let newRange = prefix..<new.count - suffix
    if let oldIDs = identities(old[oldRange]), let newIDs = identities(new[newRange]) {
      matchByID(old: oldRange, oldIDs, new: newRange, newIDs, in: new, pairs: &pairs)
    } else {
      matchByPosition(old: oldRange, new: newRange, in: new, pairs: &pairs)
    }
    // Elements added, removed, moved or changed: what a replace is weighed
    // against, however many operations a change inside one element takes.
    var touched = operations.count - start
    for pair in pairs {
      let before = operations.count
      path.append(String(pair.new))
      diff(old[pair.old], new[pair.new])
      // An element whose changes take more operations than it has members
      // is sent whole: another product in a cart line is one replace.
      if case .object(let members) = new[pair.new], operations.count - before > max(members.count, 1) {
        operations.removeSubrange(before...)
        operations.append(.replace(path: JSONPointer(tokens: path), value: new[pair.new]))
      }
      path.removeLast()
      if operations.count > before { touched += 1 }
    }

    if touched > max(new.count, 1) {
      operations.removeSubrange(start...)
      operations.append(.replace(path: pointer, value: .array(new)))
    }
  }

  /// The `"id"` of each element, if every element is an object whose `"id"`
  /// is a scalar.
  func identities(_ elements: Slice<JSONArray>) -> [JSONValue]? {
    var ids: [JSONValue] = []
    ids.reserveCapacity(elements.count)
    for element in elements {
      guard case .object(let members) = element, let id = members["id"] else { return nil }
      switch id {
      case .array, .object: return nil
      default: ids.append(id)
      }
    }
    return ids
  }

  /// Pairs elements index by index over the shorter range, then removes the
  /// rest of `old` (from the end) or adds the rest of `new` (by index).
  /// Both ranges start at the same index.
  mutating func matchByPosition(
    old: Range<Int>, new: Range<Int>, in newElements: JSONArray, pairs: inout [(old: Int, new: Int)]
  ) {
    let common = min(old.count, new.count)
    for offset in 0..<common { pairs.append((old.lowerBound + offset, new.lowerBound + offset)) }
    for index in (old.lowerBound + common..<old.upperBound).reversed() {
      operations.append(.remove(path: pointer(index: index)))
    }
    for index in new.lowerBound + common..<new.upperBound {
      operations.append(.add(path: pointer(index: index), value: newElements[index]))
    }
  }

  /// Matches elements by id (see ``JSONPatch/diff(from:to:)``), falling back
  /// to positions if an id repeats. `oldIDs[i]` is the id of the element at
  /// `old.lowerBound + i`, likewise for `new`; both ranges start at the same
  /// index.
  mutating func matchByID(
    old: Range<Int>, _ oldIDs: [JSONValue], new: Range<Int>, _ newIDs: [JSONValue],
    in newElements: JSONArray, pairs: inout [(old: Int, new: Int)]
  ) {
    let base = old.lowerBound
    // Ids that agree position by position at either end need no lookup.
    let shorter = min(oldIDs.count, newIDs.count)
    var head = 0
    while head < shorter && oldIDs[head] == newIDs[head] { head += 1 }
    var tail = 0
    while tail < shorter - head && oldIDs[oldIDs.count - 1 - tail] == newIDs[newIDs.count - 1 - tail] { tail += 1 }
    for offset in 0..<head { pairs.append((base + offset, base + offset)) }
    defer {
      for offset in 0..<tail {
        pairs.append((old.upperBound - tail + offset, new.upperBound - tail + offset))
      }
    }
    let oldInner = head..<oldIDs.count - tail
    let newInner = head..<newIDs.count - tail
    guard !oldInner.isEmpty || !newInner.isEmpty else { return }

    var newPosition: [JSONValue: Int] = [:]
    newPosition.reserveCapacity(newInner.count)
    var oldPosition: [JSONValue: Int] = [:]
    oldPosition.reserveCapacity(oldInner.count)
    var unique = true
    for index in newInner {
      if newPosition.updateValue(index, forKey: newIDs[index]) != nil { unique = false }
    }
    for index in oldInner {
      if oldPosition.updateValue(index, forKey: oldIDs[index]) != nil { unique = false }
    }
    guard unique else {
      matchByPosition(
        old: base + oldInner.lowerBound..<base + oldInner.upperBound,
        new: base + newInner.lowerBound..<base + newInner.upperBound, in: newElements, pairs: &pairs)
      return
    }

    // 1. Removals, highest index first.
    for index in oldInner.reversed() where newPosition[oldIDs[index]] == nil {
      operations.append(.remove(path: pointer(index: base + index)))
    }
    // 2. The surviving ids in new order; each one's rank in that order.
    var survivors: [(old: Int, new: Int)] = []
    var rankByOldIndex = [Int](repeating: -1, count: oldInner.count)
    for index in newInner {
      if let oldIndex = oldPosition[newIDs[index]] {
        rankByOldIndex[oldIndex - head] = survivors.count
        survivors.append((oldIndex, index))
      }
    }
    // 3. Moves: after the removals the survivors sit at base + head + 0..<count
    //    in old order; reorder them into new order.
    let ranks = rankByOldIndex.filter { $0 >= 0 }
    let first = base + head
    for move in ArrayReordering.moves(sorting: ranks) {
      operations.append(.move(from: pointer(index: first + move.from), path: pointer(index: first + move.to)))
    }
    // 4. Insertions at their final indices, lowest first.
    for index in newInner where oldPosition[newIDs[index]] == nil {
      operations.append(.add(path: pointer(index: base + index), value: newElements[base + index]))
    }
    // 5. The survivors' contents, compared by the caller at their new index.
    for survivor in survivors { pairs.append((base + survivor.old, base + survivor.new)) }
  }
}
