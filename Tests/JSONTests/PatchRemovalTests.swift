import JSON
import Testing

/// `JSONPatch.mayRemove`: which patches may have removed a location, so
/// that a location that names nothing after a patch that cannot have
/// removed it never named anything.
@Suite struct PatchRemovalTests {
  static let old = try! json(#"{"cart":{"items":[{"id":1,"n":1},{"id":2,"n":1}],"note":"a"},"tags":["x"]}"#)

  func mayRemove(_ patch: String, at path: String) throws -> Bool {
    JSONPatch.mayRemove(try JSONPatch.operations(from: json(patch)), at: try pointer(path))
  }

  @Test func removingOrWritingAboveMayRemove() throws {
    #expect(try mayRemove(#"[{"op":"remove","path":"/cart/items/1"}]"#, at: "/cart/items/1/n"))
    #expect(try mayRemove(#"[{"op":"remove","path":"/cart"}]"#, at: "/cart/items/1"))
    #expect(try mayRemove(#"[{"op":"replace","path":"/cart","value":{}}]"#, at: "/cart/items/1"))
    #expect(try mayRemove(#"[{"op":"add","path":"/cart","value":{}}]"#, at: "/cart/note"))
    #expect(try mayRemove(#"[{"op":"move","from":"/cart/note","path":"/note"}]"#, at: "/cart/note"))
    #expect(try mayRemove(#"[{"op":"copy","from":"/tags","path":"/cart"}]"#, at: "/cart/note"))
    #expect(try mayRemove(#"[{"op":"move","from":"/tags","path":"/cart"}]"#, at: "/cart/note"))
  }

  @Test func removingAnEarlierElementMayRemove() throws {
    #expect(try mayRemove(#"[{"op":"remove","path":"/cart/items/0"}]"#, at: "/cart/items/1"))
    #expect(try mayRemove(#"[{"op":"remove","path":"/cart/items/1"}]"#, at: "/cart/items/1"))
    #expect(try mayRemove(#"[{"op":"move","from":"/cart/items/0","path":"/tags/0"}]"#, at: "/cart/items/1/n"))
  }

  /// An insertion makes the array longer: it cannot remove an element, only
  /// put another element where a location inside one was.
  @Test func insertingAnEarlierElementMayRemoveOnlyInsideAnElement() throws {
    let insertion = #"[{"op":"add","path":"/cart/items/0","value":{"id":3}}]"#
    #expect(try mayRemove(insertion, at: "/cart/items/5/n"))
    #expect(try mayRemove(insertion, at: "/cart/items/0/n"))
    #expect(try !mayRemove(insertion, at: "/cart/items/5"))
    #expect(try !mayRemove(insertion, at: "/cart/items/0"))
    #expect(try mayRemove(#"[{"op":"copy","from":"/tags/0","path":"/cart/items/1"}]"#, at: "/cart/items/4/n"))
  }

  @Test func changesElsewhereAtItOrAfterItCannotRemove() throws {
    #expect(try !mayRemove(#"[{"op":"replace","path":"/cart/note","value":"b"}]"#, at: "/cart/nothing"))
    #expect(try !mayRemove(#"[{"op":"replace","path":"/cart/items/0/n","value":2}]"#, at: "/cart/items/0/n"))
    #expect(try !mayRemove(#"[{"op":"add","path":"/cart/items/-","value":{"id":3}}]"#, at: "/cart/items/5/n"))
    #expect(try !mayRemove(#"[{"op":"remove","path":"/cart/items/2"}]"#, at: "/cart/items/1/n"))
    #expect(try !mayRemove(#"[{"op":"add","path":"/cart/other","value":1}]"#, at: "/cart/nothing"))
    #expect(try !mayRemove(#"[{"op":"test","path":"/cart","value":1}]"#, at: "/cart/note"))
    #expect(try !mayRemove("[]", at: "/cart"))
  }

  /// Whatever two documents are, every location of the first that the
  /// second lacks is one the diff between them may remove.
  @Test(arguments: [11, 12, 13] as [UInt64])
  func everyLocationTheDiffRemovedIsOneItMayRemove(seed: UInt64) throws {
    var random = RandomJSON(seed: seed)
    for round in 0..<500 {
      let old = random.document()
      var new = old
      for _ in 0..<random.int(1...3) { new = random.mutate(new) }
      let operations = JSONPatch.diff(from: old, to: new)
      for location in Self.locations(in: old) where location.value(in: new) == nil {
        #expect(
          JSONPatch.mayRemove(operations, at: location),
          "seed \(seed) round \(round): \(location)\nold \(canonical(old))\npatch \(canonical(operations))")
      }
    }
  }

  /// Every location in `value`, the root included.
  static func locations(in value: JSONValue, at base: JSONPointer = .root) -> [JSONPointer] {
    var result = [base]
    switch value {
    case .object(let members):
      for (key, member) in members { result += locations(in: member, at: base.appending(key)) }
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        result += locations(in: element, at: base.appending(index: index))
      }
    default:
      break
    }
    return result
  }
}
