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
      #expect(Self.canonicalBytes(operations) == bytes, "written straight from the operations\n\(context)")
      // Codable through Foundation: JSONEncoder writes 1.0 as 1, so compare
      // the outcome numerically.
      let data = try JSONEncoder().encode(operations)
      let decoded = try JSONDecoder().decode([PatchOperation].self, from: data)
      #expect(decoded.map(\.path) == operations.map(\.path), context)
      #expect(JSONPatch.equal(try JSONPatch.apply(decoded, to: old), new), context)
    }
  }

  /// Told at which paths of two documents members may differ (those that
  /// do, some inside objects that changed, and one that may not), the diff
  /// compares only those and gives the operations the whole diff gives.
  @Test(arguments: [5, 6] as [UInt64])
  func aDiffOfTheChangedMembersIsTheWholeDiff(seed: UInt64) {
    var random = RandomJSON(seed: seed)
    var compared = 0
    var nested = 0
    for _ in 0..<500 {
      let old = random.document()
      var new = old
      for _ in 0..<random.int(1...3) { new = random.mutate(new) }
      guard case .object = old, case .object = new else { continue }
      var changes: [(path: [String], old: JSONValue?, new: JSONValue?)] = []
      Self.changedMembers(old, new, at: [], into: &changes, random: &random)
      if let unchanged = Self.unchangedMember(old, new) {
        let pointer = JSONPointer(tokens: unchanged)
        changes.append((unchanged, pointer.value(in: old), pointer.value(in: new)))
      }
      // In any order: the diff puts them in the order of their paths.
      for index in changes.indices.reversed() { changes.swapAt(index, random.int(0...index)) }
      nested += changes.filter { $0.path.count > 1 }.count
      let context = Comment(rawValue: "seed \(seed)\nold \(canonical(old))\nnew \(canonical(new))")
      #expect(JSONPatch.diff(changes: changes) == JSONPatch.diff(from: old, to: new), context)
      compared += 1
    }
    #expect(compared > 50)
    #expect(nested > 10)
  }

  /// The paths of the members of `old` and `new`, two objects, that
  /// differ, going down into members that are objects in both at random.
  private static func changedMembers(
    _ old: JSONValue, _ new: JSONValue, at path: [String],
    into changes: inout [(path: [String], old: JSONValue?, new: JSONValue?)], random: inout RandomJSON
  ) {
    guard case .object(let before) = old, case .object(let after) = new else { return }
    for key in Set(before.keys).union(after.keys).sorted() where before[key] != after[key] {
      if let inBefore = before[key], let inAfter = after[key], case .object = inBefore, case .object = inAfter,
        random.chance(0.5)
      {
        changedMembers(inBefore, inAfter, at: path + [key], into: &changes, random: &random)
      } else {
        changes.append((path + [key], before[key], after[key]))
      }
    }
  }

  /// The path of a member the same in both objects, if there is one.
  /// `JSONPatch.canonicalBytes(_:into:)` into an array that held other
  /// bytes, longer than most patches: what it held must be gone.
  private static func canonicalBytes(_ operations: [PatchOperation]) -> [UInt8] {
    var output = Array(repeating: UInt8(ascii: "x"), count: 300)
    JSONPatch.canonicalBytes(operations, into: &output)
    return output
  }

  private static func unchangedMember(_ old: JSONValue, _ new: JSONValue) -> [String]? {
    guard case .object(let before) = old, case .object(let after) = new else { return nil }
    return before.keys.first { before[$0] == after[$0] }.map { [$0] }
  }

  /// Every kind of operation, with members and values that need escaping,
  /// is written straight from the operations as from their JSON value.
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
    #expect(Self.canonicalBytes(operations) == CanonicalJSON.encode(JSONPatch.json(operations)))
    #expect(Self.canonicalBytes([]) == CanonicalJSON.encode(JSONPatch.json([])))
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
