import ActionLanguage
import ComposableCore
import FoundationEssentials
import JSON
import Testing

/// What a schema lists, and the samples built from it.
@Suite struct ActionSchemaTests {
  @Test func listsEveryPathWithItsArguments() {
    #expect(
      ActionSchema.library.allPaths.map(\.usage) == [
        "open",
        "move <Int> <to: top|Bottom>",
        "weigh <grams: Double> <exact: Bool>",
        "tag <String?> <note: Note? (JSON)>",
        "lookup <UUID>",
        "items[<id: String>].rename <String>",
        "items[<id: String>].toggle",
        "settings.name <value: String>",
        "settings.age <value: Int>",
        "attach <Note (JSON)>",
        "tree.grow.<…>",
        "tree.leaf",
        "screens.popFrom <id: Int>",
        "screens[<id: Int>].rename <String>",
        "screens[<id: Int>].toggle",
      ])
    #expect(ActionSchema.library.allPaths[0].summary == "Opens the library")
    #expect(ActionSchema.library.allPaths[7].summary == "Sets the name")
  }

  @Test func everySampleDecodesToItsCaseAndRoundTrips() throws {
    let samples = ActionSchema.library.samples
    #expect(samples.count == ActionSchema.library.allPaths.count - 1)  // but the recursion marker
    for sample in samples {
      let action = try sample.action.decode(LibraryAction.self)
      #expect(try CanonicalJSON.value(of: action) == sample.action, "\(sample.entry.path)")
    }
  }

  @Test func namesTypesReadably() {
    #expect(ValueSchema.json([Note].self, sample: []).typeName == "[Note]")
    #expect(ValueSchema.of(Int?.self).typeName == "Int?")
    #expect(ValueSchema.json([String: Int].self, sample: [:]).typeName == "[String: Int]")
    #expect(ValueSchema.of(Int.self).typeName == "Int")
    #expect(ValueSchema.of(IdentifiedAction<String, ItemAction>.self).typeName == "IdentifiedAction<ItemAction>")
    #expect(ActionSchemaReference(PresentationAction<ItemAction>.self).typeName == "PresentationAction<ItemAction>")
  }

  @Test func entriesTravelAsJSON() throws {
    let entries = ActionSchema.library.allPaths
    let decoded = try JSONDecoder().decode([ActionPathEntry].self, from: JSONEncoder().encode(entries))
    #expect(decoded == entries)
  }
}
