import ActionLanguage
import ComposableCore
import Testing

/// Every way a command line can miss, and the message that says how.
@Suite struct ActionPathErrorTests {
  static let mistakes: [(String, [String], String)] = [
    (
      "", [], "no action given; expected one of: open, move, weigh, tag, lookup, items, settings, attach, tree, screens"
    ),
    ("opn", [], "unknown action 'opn': did you mean open?"),
    (
      "zzz", [],
      "unknown action 'zzz'; expected one of: open, move, weigh, tag, lookup, items, settings, attach, tree, screens"
    ),
    (
      "rename", ["x"],
      "unknown action 'rename': did you mean items[<id: String>].rename <String>, screens[<id: Int>].rename <String> or settings.name <value: String>?"
    ),
    ("tree.grw", [], "unknown action 'tree.grw': did you mean tree.grow.<grow|leaf>?"),
    ("items[a].toggel", [], "unknown action 'items[a].toggel': did you mean items[a].toggle?"),
    ("tree", [], "tree is a group of actions; expected one of: grow, leaf"),
    ("open", ["1"], "open takes no arguments, got 1"),
    ("move", ["1"], "move takes 2 arguments (Int, to: top|Bottom), got 1"),
    ("tag", ["a", "null", "c"], "tag takes 0 to 2 arguments (String?, note: Note? (JSON)), got 3"),
    ("move", ["x", "top"], "move: 'x' is not an Int"),
    ("move", ["1", "middle"], "move: 'middle' is not a Shelf (to): expected one of: top, Bottom"),
    ("move", ["1", "botom"], "move: 'botom' is not a Shelf (to): did you mean Bottom?"),
    ("weigh", ["heavy", "true"], "weigh: 'heavy' is not a number (grams)"),
    ("weigh", ["nan", "true"], "weigh: 'nan' is not a number (grams)"),
    ("weigh", ["1", "yes"], "weigh: 'yes' is not true or false (exact)"),
    ("lookup", ["not-a-uuid"], "lookup: 'not-a-uuid' is not a UUID"),
    ("tag", ["red", "{bad"], "tag: '{bad' is not JSON for Note or null (note): it does not parse as JSON"),
    (
      "attach", [#"{"text":"hi"}"#],
      #"attach: '{"text":"hi"}' is not JSON for Note: missing key 'pinned' at the top level"#
    ),
    (
      "attach", [#"{"text":1,"pinned":true}"#],
      #"attach: '{"text":1,"pinned":true}' is not JSON for Note: expected String at text"#
    ),
    ("items.toggle", [], "items is a collection; name an element by id, as in items[<id: String>].<rename|toggle>"),
    ("open[3]", [], "open is not a collection; remove [3]"),
    ("tree[3].leaf", [], "tree is not a collection; remove [3]"),
    ("open.now", [], "open is an action, not a group: nothing can follow it ('now'); write open"),
    (
      "move.to", ["1"],
      "move is an action, not a group: nothing can follow it ('to'); write move <Int> <to: top|Bottom>"
    ),
    ("items[abc", [], "malformed action path 'items[abc': '[' has no matching ']'"),
    (
      "items[abc]x.toggle", [],
      "malformed action path 'items[abc]x.toggle': 'items[abc]' must be followed by '.' or the end of the path"
    ),
    ("items[].toggle", [], "malformed action path 'items[].toggle': an element id is empty: '[]'"),
    ("open..x", [], "malformed action path 'open..x': a step is empty; write steps as name.name[id].name"),
    ("settings", [], "settings sets a form field; expected one of: name, age"),
    (
      "screens.toggle", [],
      "screens is a navigation stack; name a screen by id or go back: screens[<id: Int>].<rename|toggle> or screens.popFrom <id: Int>"
    ),
    (
      "screens", [],
      "screens is a navigation stack; name a screen by id or go back: screens[<id: Int>].<rename|toggle> or screens.popFrom <id: Int>"
    ),
    ("screens[x].toggle", [], "screens[x]: 'x' is not an Int (id)"),
    ("screens.popFrom", [], "screens.popFrom takes 1 argument (id: Int), got 0"),
    ("screens[1].popFrom", ["1"], "unknown action 'screens[1].popFrom'; expected one of: rename, toggle"),
    ("settings.agee", ["3"], "unknown field 'settings.agee': did you mean settings.age <value: Int>?"),
    ("settings.colour", ["3"], "unknown field 'settings.colour'; expected one of: name, age"),
    ("settings.age", ["old"], "settings.age: 'old' is not an Int (value)"),
    ("settings.age", [], "settings.age takes 1 argument (value: Int), got 0"),
    (
      "settings.age.x", ["1"],
      "settings.age is an action, not a group: nothing can follow it ('x'); write settings.age <value: Int>"
    ),
  ]

  @Test(arguments: mistakes)
  func explainsTheMistake(path: String, arguments: [String], message: String) {
    do {
      let action = try ActionPath.parse(path: path, arguments: arguments, schema: .library)
      Issue.record("'\(path)' \(arguments) parsed as \(action)")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func namesTheValuesInTheErrorCase() {
    #expect(
      throws: ActionPathError.invalidArgument(
        path: "move", word: "x", name: nil, expected: "an Int", problem: nil)
    ) {
      try ActionPath.parse(path: "move", arguments: ["x", "top"], schema: .library)
    }
  }
}
