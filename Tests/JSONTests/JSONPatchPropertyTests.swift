import FoundationEssentials
import JSON
import Testing

/// `apply(diff(a, b), to: a) == b` over thousands of random documents and
/// random edits of them, and the patches survive both JSON encodings.
@Suite struct JSONPatchPropertyTests {
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func applyingTheDiffGivesTheNewDocument(seed: UInt64) throws {
    var random = RandomJSON(seed: seed)
    for round in 0..<750 {
      let old = random.document()
      var new = old
      for _ in 0..<random.int(1...3) { new = random.mutate(new) }
      if round % 50 == 0 { new = random.document() }
      let operations = JSONPatch.diff(from: old, to: new)
      let context = Comment(
        rawValue:
          "seed \(seed) round \(round)\nold \(canonical(old))\nnew \(canonical(new))\npatch \(canonical(operations))")

      let applied: JSONValue
      do {
        applied = try JSONPatch.apply(operations, to: old)
      } catch {
        Issue.record("\(error)\n\(context)")
        continue
      }
      #expect(applied == new, context)
      #expect(canonical(applied) == canonical(new), context)
      #expect(JSONPatch.diff(from: new, to: new).isEmpty, context)
      if old == new { #expect(operations.isEmpty, context) }

      // Canonical JSON keeps every value exactly.
      let bytes = CanonicalJSON.encode(JSONPatch.json(operations))
      #expect(try JSONPatch.operations(from: JSONParser.parse(bytes)) == operations, context)
      #expect(JSONPatch.canonicalBytes(operations) == bytes, "written straight from the operations\n\(context)")
      // Codable through Foundation: JSONEncoder writes 1.0 as 1, so compare
      // the outcome numerically.
      let data = try JSONEncoder().encode(operations)
      let decoded = try JSONDecoder().decode([PatchOperation].self, from: data)
      #expect(decoded.map(\.path) == operations.map(\.path), context)
      #expect(JSONPatch.equal(try JSONPatch.apply(decoded, to: old), new), context)
    }
  }

  /// Every kind of operation, with members and values that need escaping,
  /// is written straight from the operations as from their JSON value.
  /// Told which members of two objects may differ (those that do, and one
  /// that may not), the diff compares only those and gives the operations
  /// the whole diff gives.
  @Test(arguments: [5, 6] as [UInt64])
  func aDiffOfTheChangedMembersIsTheWholeDiff(seed: UInt64) {
    var random = RandomJSON(seed: seed)
    var compared = 0
    for _ in 0..<500 {
      let old = random.document()
      var new = old
      for _ in 0..<random.int(1...3) { new = random.mutate(new) }
      guard case .object(let before) = old, case .object(let after) = new else { continue }
      let keys = Set(before.keys).union(after.keys)
      var members = keys.filter { before[$0] != after[$0] }
      if let unchanged = keys.subtracting(members).first { members.insert(unchanged) }
      let context = Comment(rawValue: "seed \(seed)\nold \(canonical(old))\nnew \(canonical(new))")
      let changes = members.map { (key: $0, old: before[$0], new: after[$0]) }
      #expect(JSONPatch.diff(changedMembers: changes) == JSONPatch.diff(from: old, to: new), context)
      compared += 1
    }
    #expect(compared > 50)
  }

  @Test func canonicalBytesAreTheCanonicalJSONOfTheValue() throws {
    let operations: [PatchOperation] = [
      .add(path: try JSONPointer("/a~1b/-"), value: .object(["z": .int(1), "é\"": .array([.null, .bool(true)])])),
      .remove(path: try JSONPointer("/tab\there")),
      .remove(path: try JSONPointer("/q\"uote/é/back\\slash")),
      .replace(path: try JSONPointer("/plain/é/12"), value: .int(3)),
      .replace(path: try JSONPointer(""), value: .double(0.5)),
      .move(from: try JSONPointer("/m~0n"), path: try JSONPointer("/x/0")),
      .copy(from: try JSONPointer("/x"), path: try JSONPointer("/y")),
      .test(path: try JSONPointer("/s"), value: .string("line\nbreak \u{1F600}")),
    ]
    #expect(JSONPatch.canonicalBytes(operations) == CanonicalJSON.encode(JSONPatch.json(operations)))
    #expect(JSONPatch.canonicalBytes([]) == CanonicalJSON.encode(JSONPatch.json([])))
  }

  @Test func reorderingsOfIdentifiedArraysUseTheFewestMoves() throws {
    var random = RandomJSON(seed: 99)
    for _ in 0..<300 {
      let count = random.int(0...40)
      let old = JSONPatchDiffTests.items(0..<count)
      let permutation = Array(0..<count).shuffled(using: &random.generator)
      let new = permutation.map { JSONPatchDiffTests.item($0) }
      let operations = JSONPatch.diff(from: .array(old), to: .array(new))
      #expect(try JSONPatch.apply(operations, to: .array(old)) == .array(new))
      if operations.allSatisfy({ $0.name == "move" }) {
        #expect(operations.count == count - longestIncreasingRun(permutation))
      } else {
        // More moves than elements: the whole array was replaced.
        #expect(operations.count == 1)
      }
    }
  }

  private func longestIncreasingRun(_ values: [Int]) -> Int {
    var tails: [Int] = []
    for value in values {
      let index = tails.firstIndex { $0 >= value } ?? tails.count
      if index == tails.count { tails.append(value) } else { tails[index] = value }
    }
    return tails.count
  }
}
