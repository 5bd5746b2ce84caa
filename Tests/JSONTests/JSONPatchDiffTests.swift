import JSON
import Testing

@Suite struct JSONPatchDiffTests {
  static func item(_ id: Int, field: String = "x") -> JSONValue {
    .object(["id": .int(id), "field": .string(field), "done": .bool(false)])
  }

  static func items(_ ids: some Sequence<Int>) -> [JSONValue] { ids.map { item($0) } }

  static func document(_ items: [JSONValue]) -> JSONValue { .object(["items": .array(items), "title": .string("t")]) }

  /// Checks the invariant and returns the patch as canonical JSON.
  func patch(_ old: JSONValue, _ new: JSONValue, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
    -> String
  {
    let operations = JSONPatch.diff(from: old, to: new)
    #expect(try JSONPatch.apply(operations, to: old) == new, sourceLocation: sourceLocation)
    return canonical(operations)
  }

  @Test func equalValuesGiveNoOperations() throws {
    let document = Self.document(Self.items(0..<100))
    #expect(JSONPatch.diff(from: document, to: document) == [])
    #expect(JSONPatch.diff(from: .double(-0.0), to: .double(0)) == [])
  }

  @Test func insertingOneElementIntoTenThousandIsOneOperation() throws {
    let old = Self.document(Self.items(0..<10_000))
    var elements = Self.items(0..<10_000)
    elements.insert(Self.item(20_000), at: 4_321)
    let operations = JSONPatch.diff(from: old, to: Self.document(elements))
    #expect(operations == [.add(path: try pointer("/items/4321"), value: Self.item(20_000))])
    #expect(try JSONPatch.apply(operations, to: old) == Self.document(elements))
  }

  @Test func changingOneFieldOfElement5000IsOneOperation() throws {
    let old = Self.document(Self.items(0..<10_000))
    var elements = Self.items(0..<10_000)
    elements[5_000] = Self.item(5_000, field: "changed")
    #expect(
      try patch(old, Self.document(elements)) == #"[{"op":"replace","path":"/items/5000/field","value":"changed"}]"#)
  }

  @Test func changesFarApartInALargeArrayStayOneOperationEach() throws {
    let old = Self.document(Self.items(0..<10_000))
    var elements = Self.items(0..<10_000)
    elements[3] = Self.item(3, field: "a")
    elements.remove(at: 5_000)
    elements.append(Self.item(10_000))
    elements[9_998] = Self.item(9_999, field: "b")
    #expect(
      try patch(old, Self.document(elements))
        == #"[{"op":"remove","path":"/items/5000"},{"op":"add","path":"/items/9999","value":{"done":false,"field":"x","id":10000}},{"op":"replace","path":"/items/3/field","value":"a"},{"op":"replace","path":"/items/9998/field","value":"b"}]"#
    )
  }

  @Test func removingAndAppendingUseIndices() throws {
    let old = Self.document(Self.items(0..<5))
    #expect(try patch(old, Self.document(Self.items([0, 1, 3, 4]))) == #"[{"op":"remove","path":"/items/2"}]"#)
    #expect(
      try patch(old, Self.document(Self.items(0..<6)))
        == #"[{"op":"add","path":"/items/5","value":{"done":false,"field":"x","id":5}}]"#)
  }

  @Test func reorderingMovesOnlyWhatLeftTheLongestOrderedRun() throws {
    let old = Self.document(Self.items(0..<10_000))
    var elements = Self.items(0..<10_000)
    elements.insert(elements.removeLast(), at: 0)
    #expect(try patch(old, Self.document(elements)) == #"[{"from":"/items/9999","op":"move","path":"/items/0"}]"#)

    let reversed = Self.document(Self.items((0..<6).reversed()))
    let operations = JSONPatch.diff(from: Self.document(Self.items(0..<6)), to: reversed)
    #expect(operations.count == 5)
    #expect(operations.allSatisfy { $0.name == "move" })
    #expect(try JSONPatch.apply(operations, to: Self.document(Self.items(0..<6))) == reversed)
  }

  @Test func movesRemovalsInsertionsAndChangesTogether() throws {
    let old = Self.document(Self.items([1, 2, 3, 4, 5]))
    var elements = Self.items([5, 2, 9, 1, 4])
    elements[4] = Self.item(4, field: "y")
    #expect(
      try patch(old, Self.document(elements))
        == #"[{"op":"remove","path":"/items/2"},{"from":"/items/3","op":"move","path":"/items/0"},{"from":"/items/1","op":"move","path":"/items/2"},{"op":"add","path":"/items/2","value":{"done":false,"field":"x","id":9}},{"op":"replace","path":"/items/4/field","value":"y"}]"#
    )
  }

  @Test func clearingALargeArrayIsOneReplace() throws {
    let old = Self.document(Self.items(0..<10_000))
    #expect(try patch(old, Self.document([])) == #"[{"op":"replace","path":"/items","value":[]}]"#)
    #expect(try patch(Self.document(Self.items([1])), Self.document([])) == #"[{"op":"remove","path":"/items/0"}]"#)
    #expect(
      try patch(Self.document(Self.items([1, 2])), Self.document(Self.items([3, 4])))
        == #"[{"op":"replace","path":"/items","value":[{"done":false,"field":"x","id":3},{"done":false,"field":"x","id":4}]}]"#
    )
  }

  @Test func plainArraysTrimAndComparePositionByPosition() throws {
    #expect(try patch(try json("[1,2,3]"), try json("[0,1,2,3]")) == #"[{"op":"add","path":"/0","value":0}]"#)
    #expect(try patch(try json("[1,2,3]"), try json("[1,3]")) == #"[{"op":"remove","path":"/1"}]"#)
    #expect(
      try patch(try json("[1,2,3]"), try json("[1,2,3,4,5]"))
        == #"[{"op":"add","path":"/3","value":4},{"op":"add","path":"/4","value":5}]"#)
    #expect(
      try patch(try json("[1,[1,2],3]"), try json("[1,[1,3],3]")) == #"[{"op":"replace","path":"/1/1","value":3}]"#)
    #expect(
      try patch(try json("[1,2,3,4]"), try json("[1,5,3]"))
        == #"[{"op":"remove","path":"/3"},{"op":"replace","path":"/1","value":5}]"#)
  }

  @Test func repeatedOrNonScalarIDsFallBackToPositions() throws {
    let old = try json(#"[{"id":1,"v":1},{"id":1,"v":2},{"id":2,"v":3}]"#)
    let new = try json(#"[{"id":2,"v":3},{"id":1,"v":2},{"id":1,"v":1}]"#)
    _ = try patch(old, new)
    let objectIDs = try json(#"[{"id":{"k":1},"v":1},{"id":{"k":2},"v":2}]"#)
    #expect(
      try patch(objectIDs, try json(#"[{"id":{"k":1},"v":1},{"id":{"k":2},"v":3}]"#))
        == #"[{"op":"replace","path":"/1/v","value":3}]"#)
  }

  @Test func objectsChangeMemberByMemberInKeyOrder() throws {
    let old = try json(#"{"b":1,"a":{"x":1,"y":2},"c":"gone","a/b":0}"#)
    let new = try json(#"{"b":1,"a":{"x":1,"y":3},"d":"new","a/b":[1],"m~n":null}"#)
    #expect(
      try patch(old, new)
        == #"[{"op":"replace","path":"/a/y","value":3},{"op":"replace","path":"/a~1b","value":[1]},{"op":"remove","path":"/c"},{"op":"add","path":"/d","value":"new"},{"op":"add","path":"/m~0n","value":null}]"#
    )
  }

  @Test func typeChangesReplace() throws {
    #expect(try patch(JSONValue.int(1), JSONValue.double(1)) == #"[{"op":"replace","path":"","value":1.0}]"#)
    #expect(
      try patch(try json(#"{"a":[1]}"#), try json(#"{"a":{"0":1}}"#))
        == #"[{"op":"replace","path":"/a","value":{"0":1}}]"#)
    #expect(try patch(JSONValue.null, try json("[]")) == #"[{"op":"replace","path":"","value":[]}]"#)
  }

  /// The same value with every array built anew: nothing shared with `value`.
  static func rebuilt(_ value: JSONValue) -> JSONValue {
    switch value {
    case .array(let elements): .array(elements.map(rebuilt))
    case .object(let members): .object(members.mapValues(rebuilt))
    default: value
    }
  }

  /// A document changed from another shares the chunks of its large arrays
  /// that did not change, and the diff passes them without comparing their
  /// elements; the operations are the same as for a document built anew.
  @Test func sharedChunksGiveTheSameOperationsAsArraysBuiltAnew() throws {
    let old = Self.document(Self.items(0..<1_000))
    guard case .object(let members) = old, case .array(let items)? = members["items"] else {
      Issue.record("the fixture has no items array: \(old)")
      return
    }
    let changes: [(String, (inout JSONArray) -> Void)] = [
      ("change the first", { $0[0] = Self.item(0, field: "first") }),
      ("change one in the middle", { $0[500] = Self.item(500, field: "middle") }),
      ("change the last", { $0[999] = Self.item(999, field: "last") }),
      (
        "change two far apart",
        {
          $0[1] = Self.item(1, field: "a")
          $0[998] = Self.item(998, field: "b")
        }
      ),
      ("append", { $0.append(Self.item(5_000)) }),
      ("insert in front", { $0.insert(Self.item(5_000), at: 0) }),
      ("remove one", { $0.remove(at: 640) }),
      ("remove the last", { _ = $0.removeLast() }),
      ("swap two", { $0.swapAt(10, 900) }),
    ]
    for (name, change) in changes {
      var changed = items
      change(&changed)
      var document = members
      document["items"] = .array(changed)
      let new = JSONValue.object(document)
      let operations = JSONPatch.diff(from: old, to: new)
      #expect(operations == JSONPatch.diff(from: Self.rebuilt(old), to: Self.rebuilt(new)), "\(name)")
      #expect(try JSONPatch.apply(operations, to: old) == new, "\(name)")
      #expect(operations.count <= 2, "\(name): \(operations)")
    }
  }
}
