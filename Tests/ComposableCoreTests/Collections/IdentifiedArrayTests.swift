import ComposableCore
import FoundationEssentials
import Testing

struct Item: Identifiable, Equatable, Codable, Sendable {
  var id: Int
  var name: String
}

@Suite struct IdentifiedArrayTests {
  @Test func lookupInsertRemoveKeepOrderAndIndex() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a"), Item(id: 2, name: "b"), Item(id: 3, name: "c")]
    #expect(items[id: 2]?.name == "b")
    #expect(items.append(Item(id: 2, name: "dup")) == false)
    items.remove(id: 1)
    #expect(items.ids == [2, 3])
    #expect(items.index(id: 3) == 1)
    items.insert(Item(id: 0, name: "z"), at: 0)
    #expect(items.ids == [0, 2, 3])
    #expect(items.index(id: 3) == 2)
    items[id: 2] = nil
    items[id: 4] = Item(id: 4, name: "d")
    #expect(items.ids == [0, 3, 4])
    items[id: 3]?.name = "C"
    #expect(items[id: 3]?.name == "C")
    items.removeAll { $0.id == 0 }
    #expect(items.ids == [3, 4])
    #expect(items.index(id: 4) == 1)
  }

  @Test func encodesAsAPlainArrayAndRoundTrips() throws {
    let items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(items)
    #expect(String(decoding: data, as: UTF8.self) == #"[{"id":1,"name":"a"},{"id":2,"name":"b"}]"#)
    #expect(try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: data) == items)
  }

  @Test func decodingARepeatedIDFailsNamingIt() {
    let data = Data(#"[{"id":1,"name":"a"},{"id":1,"name":"b"}]"#.utf8)
    #expect {
      try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: data)
    } throws: { error in
      "\(error)".contains("Duplicate id 1")
    }
  }

  @Test func equalityIgnoresTheIndexStamp() {
    var a: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a")]
    let b: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a")]
    a.append(Item(id: 2, name: "b"))
    a.remove(id: 2)
    #expect(a == b)
  }
}
