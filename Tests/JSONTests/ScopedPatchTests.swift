import JSON
import Testing

@Suite struct ScopedPatchTests {
  static let old = try! json(
    #"{"cart":{"items":[{"id":1,"n":1},{"id":2,"n":1},{"id":3,"n":1},{"id":4,"n":1}],"note":"a"},"products":[1,2]}"#)

  func scoped(_ patch: String, to path: String) throws -> String? {
    let operations = try JSONPatch.operations(from: json(patch))
    let new = try JSONPatch.apply(operations, to: Self.old)
    let result = JSONPatch.scoped(operations, to: try pointer(path), newDocument: new)
    if let result, let before = try pointer(path).value(in: Self.old) {
      #expect(try JSONPatch.apply(result, to: before) == pointer(path).value(in: new))
    }
    return result.map(canonical)
  }

  @Test func operationsInsideAreRebased() throws {
    #expect(
      try scoped(#"[{"op":"replace","path":"/cart/items/0/n","value":2}]"#, to: "/cart")
        == #"[{"op":"replace","path":"/items/0/n","value":2}]"#)
    #expect(
      try scoped(#"[{"op":"move","from":"/cart/items/0","path":"/cart/items/3"}]"#, to: "/cart/items")
        == #"[{"from":"/0","op":"move","path":"/3"}]"#)
    #expect(
      try scoped(#"[{"op":"move","from":"/cart/note","path":"/note"}]"#, to: "/cart")
        == #"[{"op":"remove","path":"/note"}]"#)
  }

  @Test func operationsElsewhereAreDropped() throws {
    #expect(try scoped(#"[{"op":"add","path":"/products/-","value":3}]"#, to: "/cart") == "[]")
    #expect(try scoped(#"[{"op":"replace","path":"/cart/note","value":"b"}]"#, to: "/cart/items") == "[]")
    #expect(try scoped(#"[{"op":"copy","from":"/cart/note","path":"/note"}]"#, to: "/cart") == "[]")
    #expect(try scoped(#"[{"op":"remove","path":"/cart/items/3"}]"#, to: "/cart/items/1") == "[]")
    #expect(try scoped(#"[{"op":"remove","path":"/cart"}]"#, to: "/products") == "[]")
    #expect(try scoped(#"[{"op":"add","path":"/cart/items/2","value":{"id":9}}]"#, to: "/cart/items/1") == "[]")
  }

  @Test func replacingAnAncestorReplacesTheView() throws {
    #expect(
      try scoped(#"[{"op":"replace","path":"/cart","value":{"items":[],"note":"z"}}]"#, to: "/cart/note")
        == #"[{"op":"replace","path":"","value":"z"}]"#)
    #expect(
      try scoped(#"[{"op":"replace","path":"","value":{"cart":{"note":"r"}}}]"#, to: "/cart")
        == #"[{"op":"replace","path":"","value":{"note":"r"}}]"#)
    #expect(
      try scoped(#"[{"op":"copy","from":"/products","path":"/cart/items/0/tags"}]"#, to: "/cart/items/0")
        == #"[{"op":"replace","path":"","value":{"id":1,"n":1,"tags":[1,2]}}]"#)
  }

  @Test func shiftingAnArrayOnTheWayReplacesTheView() throws {
    // Removing /cart/items/1 makes /cart/items/2 the element that was at 3.
    #expect(
      try scoped(#"[{"op":"remove","path":"/cart/items/1"}]"#, to: "/cart/items/2")
        == #"[{"op":"replace","path":"","value":{"id":4,"n":1}}]"#)
    #expect(
      try scoped(#"[{"op":"add","path":"/cart/items/0","value":{"id":0,"n":5}}]"#, to: "/cart/items/0/n")
        == #"[{"op":"replace","path":"","value":5}]"#)
    #expect(
      try scoped(#"[{"op":"add","path":"/cart/items/-","value":{"id":5,"n":0}}]"#, to: "/cart/items/4")
        == #"[{"op":"replace","path":"","value":{"id":5,"n":0}}]"#)
  }

  @Test func aViewThatNoLongerExistsIsNil() throws {
    #expect(try scoped(#"[{"op":"remove","path":"/cart"}]"#, to: "/cart/items") == nil)
    #expect(try scoped(#"[{"op":"remove","path":"/cart/items/3"}]"#, to: "/cart/items/3") == nil)
    #expect(try scoped(#"[{"op":"remove","path":"/cart/items/0/n"}]"#, to: "/cart/items/0/n") == nil)
  }

  @Test func theRootSeesEverything() throws {
    let operations = try JSONPatch.operations(from: json(#"[{"op":"remove","path":"/cart"}]"#))
    #expect(JSONPatch.scoped(operations, to: .root, newDocument: .object([:])) == operations)
  }

  /// For random documents, edits and subscribed paths: the scoped patch
  /// applied to the old sub-document gives the new one, `nil` means it is
  /// gone, and `[]` means it did not change.
  @Test func scopedPatchesFollowTheSubDocument() throws {
    var random = RandomJSON(seed: 5)
    var replaced = 0
    var rebased = 0
    for round in 0..<1_500 {
      let old = random.document()
      var new = old
      for _ in 0..<random.int(1...3) { new = random.mutate(new) }
      let operations = JSONPatch.diff(from: old, to: new)
      for _ in 0..<4 {
        let subscribed = random.chance(0.5) ? random.pointer(in: old) : random.pointer(in: new)
        let before = subscribed.value(in: old)
        let after = subscribed.value(in: new)
        let scoped = JSONPatch.scoped(operations, to: subscribed, newDocument: new)
        let context = Comment(
          rawValue:
            "round \(round) at \"\(subscribed)\"\nold \(canonical(old))\nnew \(canonical(new))\npatch \(canonical(operations))"
        )
        guard let scoped else {
          #expect(after == nil, context)
          continue
        }
        if scoped.isEmpty {
          #expect(before == after, context)
          continue
        }
        if scoped.count == 1, case .replace(let path, _) = scoped[0], path.isRoot {
          replaced += 1
        } else {
          rebased += 1
        }
        #expect(after != nil, context)
        #expect((try? JSONPatch.apply(scoped, to: before ?? .null)) == after, context)
      }
    }
    #expect(replaced > 50)
    #expect(rebased > 50)
  }
}
