import ActionLanguage
import ComposableCore
import FoundationEssentials
import JSON
import Testing

/// Each listed action's JSON form: a placeholder where every argument and
/// element id goes, which filled in gives the action the enum decodes.
@Suite struct ActionTemplateTests {
  func entry(_ path: String) throws -> ActionPathEntry {
    try #require(ActionSchema.library.allPaths.first { $0.path == path }, "no entry \(path)")
  }

  func json(_ text: String) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
  }

  @Test func unlabeledValuesArePositionsAndLabeledOnesTheirLabels() throws {
    let move = try entry("move")
    #expect(move.json == (try json(#"{"move":{"_0":{"$argument":0},"to":{"$argument":1}}}"#)))
    #expect(move.arguments.map(\.name) == ["_0", "to"])
    #expect(move.usage == "move <Int> <to: top|Bottom>")
    #expect(move.arguments.map(\.example) == [.int(1), .string("top")])
    #expect(try entry("open").json == (try json(#""open""#)))
  }

  @Test func aCollectionsElementIdHasAPlaceholderOfItsOwn() throws {
    let rename = try entry("items[<id: String>].rename")
    #expect(
      rename.json
        == (try json(#"{"items":{"element":{"action":{"rename":{"$argument":0}},"id":{"$id":0}}}}"#)))
    #expect(rename.ids == [ActionPathEntry.Argument(name: "items", type: "String", example: .string("text"))])
    let filled = ActionTemplate.filled(rename.json, arguments: [.string("new name")], ids: [.string("b-7")])
    #expect(try filled.decode(LibraryAction.self) == .items(.element(id: "b-7", action: .rename("new name"))))
  }

  @Test func aBindingIsItsFieldAndValue() throws {
    let age = try entry("settings.age")
    #expect(age.json == (try json(#"{"settings":{"field":"age","value":{"$argument":0}}}"#)))
    let filled = ActionTemplate.filled(age.json, arguments: [.int(42)], ids: [])
    #expect(try filled.decode(LibraryAction.self) == .settings(.set(\.age, 42)))
  }

  /// An optional without a value is `null`; leaving the member out is read the same.
  @Test func anEmptyOptionalIsNullOrLeftOut() throws {
    let tag = try entry("tag")
    #expect(tag.arguments.map(\.type) == ["String?", "Note? (JSON)"])
    let nulls = ActionTemplate.filled(tag.json, arguments: [.null, .null], ids: [])
    #expect(nulls == (try json(#"{"tag":{"_0":null,"note":null}}"#)))
    #expect(try nulls.decode(LibraryAction.self) == .tag(nil, note: nil))
    #expect(try json(#"{"tag":{}}"#).decode(LibraryAction.self) == .tag(nil, note: nil))
    #expect(try json(#""tag""#).decode(LibraryAction.self) == .tag(nil, note: nil))
  }

  @Test func aRecursionMarkerHasNoJSON() throws {
    let marker = try entry("tree.grow.<…>")
    #expect(marker.json == .null)
    #expect(marker.example == nil)
  }

  @Test func everyExampleFillsItsTemplateIntoAnActionOfTheEnum() throws {
    for entry in ActionSchema.library.allPaths where entry.json != .null {
      let example = try #require(entry.example)
      #expect(!"\(example)".contains("$"), "\(entry.path) keeps a placeholder: \(example)")
      do {
        _ = try example.decode(LibraryAction.self)
      } catch {
        Issue.record("\(entry.path): \(example) does not decode: \(error)")
      }
    }
  }

  @Test func fillingReplacesOnlyPlaceholdersWithAValue() {
    let template = JSONValue.array([
      ActionTemplate.argument(0), ActionTemplate.argument(1), ActionTemplate.id(0),
      .object(["$argument": .string("0")]), .object(["$argument": .int(0), "other": .int(1)]),
    ])
    #expect(
      ActionTemplate.filled(template, arguments: [.bool(true)], ids: [.int(9)])
        == .array([
          .bool(true), ActionTemplate.argument(1), .int(9), .object(["$argument": .string("0")]),
          .object(["$argument": .int(0), "other": .int(1)]),
        ]))
  }
}
