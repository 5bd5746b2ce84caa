import JSON
import Testing

/// A member deep in a document set where it is.
@Suite struct JSONValueMembersTests {
  private let document: JSONValue = .object([
    "counter": .object(["count": .int(1), "fact": .null]),
    "tab": .string("counter"),
  ])

  @Test func aMemberIsSetAndTheValueItReplacedReturned() throws {
    var changed = document
    #expect(try changed.updateMember(.int(2), at: ["counter", "count"]) == .int(1))
    #expect(try changed.updateMember(.string("cart"), at: ["tab"]) == .string("counter"))
    let expected: JSONValue = .object([
      "counter": .object(["count": .int(2), "fact": .null]),
      "tab": .string("cart"),
    ])
    #expect(changed == expected)
  }

  @Test func theEmptyPathIsTheWholeValue() throws {
    var changed = document
    #expect(try changed.updateMember(.int(0), at: []) == document)
    #expect(changed == .int(0))
  }

  @Test func aMemberTheLastObjectLacksIsAdded() throws {
    var changed = document
    #expect(try changed.updateMember(.bool(true), at: ["counter", "isLoading"]) == nil)
    #expect(JSONPointer(tokens: ["counter", "isLoading"]).value(in: changed) == .bool(true))
  }

  @Test func aPathThroughAScalarOrAMissingMemberChangesNothing() {
    var changed = document
    #expect(
      throws: JSONPointerError.notAContainer(token: "x", container: JSONPointer(tokens: ["tab"]), found: "a string")
    ) {
      try changed.updateMember(.int(0), at: ["tab", "x"])
    }
    #expect(throws: JSONPointerError.memberNotFound(key: "dice", container: .root)) {
      try changed.updateMember(.int(0), at: ["dice", "value"])
    }
    #expect(changed == document)
  }
}
