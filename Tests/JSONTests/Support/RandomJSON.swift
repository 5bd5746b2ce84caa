import JSON
import TestSupport

/// Random JSON documents and random edits of them, for property tests.
///
/// Documents are small but dense in the cases that matter to diffs: keys and
/// strings that need escaping in pointers and JSON, ints next to doubles,
/// arrays of objects identified by an `"id"` (int or string), and edits that
/// insert, remove, reorder, re-id and change elements.
struct RandomJSON {
  var generator: SplitMix64
  private var nextID = 1000

  init(seed: UInt64) {
    generator = SplitMix64(seed: seed)
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
  mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &generator) < probability }
  mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...choices.count - 1)] }

  static let keys = ["a", "b", "c", "id", "name", "", "a/b", "m~n", "~1", "0", "1", "-", "é", "x y", "items"]
  static let characters: [String] = ["a", "b", "/", "~", "\"", "\\", "\n", "\u{1}", "é", "😀", " ", "0"]

  mutating func string() -> String {
    (0..<int(0...4)).map { _ in pick(Self.characters) }.joined()
  }

  mutating func scalar() -> JSONValue {
    switch int(0...9) {
    case 0: .null
    case 1: .bool(chance(0.5))
    case 2, 3: .int(int(-3...3))
    case 4: .int(pick([Int.min, Int.max, 1 << 53, -(1 << 40)]))
    case 5: .double(Double(int(-8...8)) / 4)
    case 6: .double(pick([1e-7, 1e16, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1, 123456.789]))
    default: .string(string())
    }
  }

  mutating func freshID() -> JSONValue {
    nextID += 1
    return chance(0.7) ? .int(nextID) : .string("id-\(nextID)")
  }

  mutating func element(depth: Int) -> JSONValue {
    var members: JSONObject = ["id": freshID(), "name": .string(string()), "n": .int(int(0...3))]
    if depth > 0 && chance(0.5) { members["child"] = value(depth: depth - 1) }
    return .object(members)
  }

  mutating func value(depth: Int) -> JSONValue {
    guard depth > 0 else { return scalar() }
    switch int(0...9) {
    case 0...2: return scalar()
    case 3...5:
      var members: JSONObject = [:]
      for _ in 0..<int(0...4) { members[pick(Self.keys)] = value(depth: depth - 1) }
      return .object(members)
    case 6...7:
      return .array((0..<int(0...8)).map { _ in element(depth: depth - 1) })
    default:
      return .array((0..<int(0...5)).map { _ in value(depth: depth - 1) })
    }
  }

  /// A document: an object with a few members, usually including arrays.
  mutating func document() -> JSONValue {
    var members: JSONObject = [:]
    members["items"] = .array((0..<int(0...10)).map { _ in element(depth: 2) })
    for _ in 0..<int(0...4) { members[pick(Self.keys)] = value(depth: 3) }
    return .object(members)
  }

  /// `value` with one to a few random edits somewhere inside it.
  mutating func mutate(_ value: JSONValue, depth: Int = 0) -> JSONValue {
    if chance(depth == 0 ? 0.02 : 0.08) { return self.value(depth: 2) }
    switch value {
    case .object(var members):
      for _ in 0..<int(1...2) {
        switch int(0...5) {
        case 0: if let key = members.keys.sorted().randomElement(using: &generator) { members[key] = nil }
        case 1: members[pick(Self.keys)] = self.value(depth: 2)
        default:
          if let key = members.keys.sorted().randomElement(using: &generator), let member = members[key] {
            members[key] = mutate(member, depth: depth + 1)
          }
        }
      }
      return .object(members)
    case .array(let chunked):
      var elements = Array(chunked)
      let identified = elements.allSatisfy { if case .object(let m) = $0 { m["id"] != nil } else { false } }
      for _ in 0..<int(1...3) {
        mutateArray(&elements, identified: identified, depth: depth)
      }
      return .array(elements)
    default:
      return chance(0.9) ? scalar() : self.value(depth: 2)
    }
  }

  private mutating func mutateArray(_ elements: inout [JSONValue], identified: Bool, depth: Int) {
    let newElement = { (random: inout RandomJSON) -> JSONValue in
      identified ? random.element(depth: 1) : random.value(depth: 2)
    }
    switch int(0...9) {
    case 0, 1:
      elements.insert(newElement(&self), at: int(0...elements.count))
    case 2:
      if !elements.isEmpty { elements.remove(at: int(0...elements.count - 1)) }
    case 3:
      if !elements.isEmpty {
        let element = elements.remove(at: int(0...elements.count - 1))
        elements.insert(element, at: int(0...elements.count))
      }
    case 4:
      elements.shuffle(using: &generator)
    case 5:
      if elements.count > 1 {
        let (a, b) = (int(0...elements.count - 1), int(0...elements.count - 1))
        elements[min(a, b)...max(a, b)].reverse()
      }
    case 6:
      // Change an element's id, or give it another element's id (a duplicate).
      if identified, let index = elements.indices.randomElement(using: &generator),
        case .object(var members) = elements[index]
      {
        members["id"] = chance(0.5) ? freshID() : (elements.randomElement(using: &generator).flatMap(Self.id) ?? .null)
        elements[index] = .object(members)
      }
    case 7:
      if chance(0.3) { elements.removeAll() } else { elements.append(newElement(&self)) }
    default:
      if let index = elements.indices.randomElement(using: &generator) {
        elements[index] = mutate(elements[index], depth: depth + 1)
      }
    }
  }

  private static func id(_ element: JSONValue) -> JSONValue? {
    if case .object(let members) = element { members["id"] } else { nil }
  }

  /// A pointer to a random location in `value`, sometimes one past what exists.
  mutating func pointer(in value: JSONValue) -> JSONPointer {
    var tokens: [String] = []
    var current = value
    while true {
      if chance(0.08) {
        tokens.append(pick(["zz", "99", "0", "-"]))
        break
      }
      switch current {
      case .object(let members) where !members.isEmpty && chance(0.75):
        let key = members.keys.sorted().randomElement(using: &generator)!
        tokens.append(key)
        current = members[key]!
      case .array(let elements) where !elements.isEmpty && chance(0.75):
        let index = int(0...elements.count - 1)
        tokens.append(String(index))
        current = elements[index]
      default:
        return JSONPointer(tokens: tokens)
      }
    }
    return JSONPointer(tokens: tokens)
  }
}
