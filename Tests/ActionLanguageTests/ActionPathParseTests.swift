import ActionLanguage
import ComposableCore
import FoundationEssentials
import JSON
import Testing

/// Command lines that name actions, and the actions they name.
@Suite struct ActionPathParseTests {
  static let uuid = UUID(uuidString: "3F2504E0-4F89-41D3-9A0C-0305E82C3301")!

  static let commands: [(String, [String], LibraryAction)] = [
    ("open", [], .open),
    ("move", ["3", "Bottom"], .move(3, to: .bottom)),
    ("move", ["-3", "bottom"], .move(-3, to: .bottom)),
    ("move", ["3", #""top""#], .move(3, to: .top)),
    ("weigh", ["2.5", "true"], .weigh(grams: 2.5, exact: true)),
    ("weigh", ["3", "false"], .weigh(grams: 3, exact: false)),
    ("tag", [], .tag(nil, note: nil)),
    ("tag", ["red"], .tag("red", note: nil)),
    ("tag", ["null", #"{"text":"x","pinned":false}"#], .tag(nil, note: Note(text: "x", pinned: false))),
    ("tag", [#""null""#], .tag("null", note: nil)),
    ("lookup", ["3f2504e0-4f89-41d3-9a0c-0305e82c3301"], .lookup(uuid)),
    ("items[abc].rename", ["new name"], .items(.element(id: "abc", action: .rename("new name")))),
    ("items[abc].rename", [#""quoted""#], .items(.element(id: "abc", action: .rename("quoted")))),
    ("items[abc].rename", ["'single'"], .items(.element(id: "abc", action: .rename("single")))),
    ("items[abc].rename", [""], .items(.element(id: "abc", action: .rename("")))),
    (#"items["a.b]c"].toggle"#, [], .items(.element(id: "a.b]c", action: .toggle))),
    ("items['x y'].toggle", [], .items(.element(id: "x y", action: .toggle))),
    ("items[42].toggle", [], .items(.element(id: "42", action: .toggle))),
    ("settings.age", ["42"], .settings(BindingAction(field: "age", value: .int(42)))),
    ("settings.name", ["Ann Lee"], .settings(BindingAction(field: "name", value: .string("Ann Lee")))),
    ("settings", ["name", "Ann"], .settings(BindingAction(field: "name", value: .string("Ann")))),
    ("attach", [#"{"text":"hi","pinned":true}"#], .attach(Note(text: "hi", pinned: true))),
    ("tree.leaf", [], .tree(.leaf)),
    ("tree.grow.grow.leaf", [], .tree(.grow(.grow(.leaf)))),
    ("screens[2].rename", ["x"], .screens(.element(id: 2, action: .rename("x")))),
    ("screens[0].toggle", [], .screens(.element(id: 0, action: .toggle))),
    ("screens.popFrom", ["1"], .screens(.popFrom(id: 1))),
  ]

  @Test(arguments: commands)
  func parsesToTheAction(path: String, arguments: [String], expected: LibraryAction) throws {
    let action = try ActionPath.parse(path: path, arguments: arguments, as: LibraryAction.self)
    #expect(action == expected)
  }

  /// Read once, a command line gives the action's JSON and the command line
  /// the action is described with, in canonical form whatever the words
  /// were; with a JSON literal among the words, no command line.
  @Test(arguments: commands)
  func readsTheJSONAndTheCanonicalCommandLineInOnePass(path: String, arguments: [String], expected: LibraryAction)
    throws
  {
    let parsed = try ActionPath.read(path: path, arguments: arguments, schema: .library)
    #expect(parsed.json == (try ActionPath.parse(path: path, arguments: arguments, schema: .library)))
    if let summary = parsed.summary {
      #expect(summary == ActionPath.describe(expected))
    } else {
      #expect(arguments.contains { $0.hasPrefix("{") })
    }
  }

  /// The JSON the daemon's encoder writes for the same action
  /// (docs/PROTOCOL.md, "Enumerations as JSON").
  @Test func producesTheJSONTheDaemonsEncoderWrites() throws {
    #expect(
      try ActionPath.parse(path: "move", arguments: ["3", "top"], schema: .library)
        == .object(["move": .object(["_0": .int(3), "to": .string("top")])]))
    #expect(try ActionPath.parse(path: "open", arguments: [], schema: .library) == .string("open"))
    #expect(
      try ActionPath.parse(path: "items[x].toggle", arguments: [], schema: .library)
        == .object(["items": .object(["element": .object(["id": .string("x"), "action": .string("toggle")])])]))
    #expect(
      try ActionPath.parse(path: "settings.age", arguments: ["7"], schema: .library)
        == .object(["settings": .object(["field": .string("age"), "value": .int(7)])]))
    for (path, arguments, action) in [
      ("move", ["3", "top"], LibraryAction.move(3, to: .top)), ("open", [], .open),
      ("items[x].toggle", [], .items(.element(id: "x", action: .toggle))), ("tag", ["red"], .tag("red", note: nil)),
    ] {
      #expect(
        try ActionPath.parse(path: path, arguments: arguments, schema: .library)
          == CanonicalJSON.value(of: action), "\(path)")
    }
  }

  /// A `nil` optional, written `null` or left out at the end, is `null`, as
  /// the daemon's encoding of the action writes it.
  @Test func writesANilOptionalAsNullAsTheEncodingDoes() throws {
    let none = JSONValue.object(["tag": .object(["_0": .null, "note": .null])])
    #expect(try ActionPath.parse(path: "tag", arguments: ["null"], schema: .library) == none)
    #expect(try ActionPath.parse(path: "tag", arguments: ["nil", "null"], schema: .library) == none)
    #expect(try ActionPath.parse(path: "tag", arguments: [], schema: .library) == none)
    #expect(try CanonicalJSON.value(of: LibraryAction.tag(nil, note: nil)) == none)
    #expect(
      try ActionPath.parse(path: "tag", arguments: ["red"], schema: .library)
        == .object(["tag": .object(["_0": .string("red"), "note": .null])]))
  }

  @Test func writesAUUIDUpperCaseAsUUIDEncodes() throws {
    let json = try ActionPath.parse(
      path: "lookup", arguments: ["3f2504e0-4f89-41d3-9a0c-0305e82c3301"], schema: .library)
    #expect(json == .object(["lookup": .string("3F2504E0-4F89-41D3-9A0C-0305E82C3301")]))
  }
}
