import ActionLanguage
import ComposableCore
import FoundationEssentials
import JSON
import Testing

/// Actions rendered as the command lines that send them, and read back.
@Suite struct ActionPathDescribeTests {
  static let renderings: [(LibraryAction, String)] = [
    (.open, "open"),
    (.move(3, to: .bottom), "move 3 Bottom"),
    (.weigh(grams: 2.5, exact: true), "weigh 2.5 true"),
    (.weigh(grams: 3, exact: false), "weigh 3 false"),
    (.tag(nil, note: nil), "tag"),
    (.tag("red", note: nil), "tag red"),
    (.tag(nil, note: Note(text: "x", pinned: false)), #"tag null '{"pinned":false,"text":"x"}'"#),
    (.tag("null", note: nil), #"tag '"null"'"#),
    (.items(.element(id: "abc", action: .rename("two words"))), "items[abc].rename 'two words'"),
    (.items(.element(id: "abc", action: .rename("it's"))), #"items[abc].rename 'it'\''s'"#),
    (.items(.element(id: "abc", action: .rename(#""q""#))), #"items[abc].rename '"\"q\""'"#),
    (.items(.element(id: "a.b", action: .toggle)), #"'items["a.b"].toggle'"#),
    // Words of letters, digits and the punctuation a shell leaves alone stay
    // bare, in any script; anything else is quoted.
    (.items(.element(id: "abc", action: .rename("x=y,z:1%@+/-_.Q"))), "items[abc].rename x=y,z:1%@+/-_.Q"),
    (.items(.element(id: "abc", action: .rename("café"))), "items[abc].rename café"),
    (.items(.element(id: "abc", action: .rename("Ωmega2"))), "items[abc].rename Ωmega2"),
    (.items(.element(id: "abc", action: .rename("a😀"))), "items[abc].rename 'a😀'"),
    (.items(.element(id: "abc", action: .rename("tab\there"))), "items[abc].rename 'tab\there'"),
    (.items(.element(id: "abc", action: .rename("[x]"))), "items[abc].rename '[x]'"),
    (.settings(BindingAction(field: "age", value: .int(42))), "settings.age 42"),
    (.attach(Note(text: "hi", pinned: true)), #"attach '{"pinned":true,"text":"hi"}'"#),
    (.tree(.grow(.leaf)), "tree.grow.leaf"),
  ]

  @Test(arguments: renderings)
  func rendersAndParsesBack(action: LibraryAction, line: String) throws {
    #expect(ActionPath.describe(action) == line)
    let json = try CanonicalJSON.value(of: action)
    let command = try #require(ActionPath.command(for: json, schema: .library))
    #expect(try ActionPath.parse(path: command.path, arguments: command.arguments, schema: .library) == json)
    #expect(try ActionPath.parse(path: command.path, arguments: command.arguments, as: LibraryAction.self) == action)
  }

  static let strangers: [JSONValue] = [
    .object(["nope": .object([:])]),
    .object(["move": .object(["_0": .string("three"), "to": .string("top")])]),
    .object(["move": .object(["_0": .int(1), "to": .string("top"), "extra": .null])]),
    .object(["settings": .object(["_0": .object(["field": .string("colour"), "value": .int(1)])])]),
    .object(["open": .object([:]), "move": .object([:])]),
    .string("nope"),
    .int(3),
  ]

  @Test(arguments: strangers)
  func fallsBackToCompactJSON(json: JSONValue) throws {
    #expect(ActionPath.command(for: json, schema: .library) == nil)
    let text = ActionPath.describe(json, schema: .library)
    #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) == json)
    #expect(!text.contains(" "))
  }
}
