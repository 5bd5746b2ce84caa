import ActionLanguage
import ComposableCore
import FoundationEssentials
import JSON
import Testing

/// A mail client's actions: what a person does, and what only its effects
/// send, marked at a case (`delivered`), at a group (`internal`, whose
/// cases inherit it unless marked themselves) and inside a collection.
enum MailAction: Equatable, DescribedAction {
  case compose(String)
  case delivered(messageID: Int?)
  case `internal`(MailInternalAction)
  case folders(IdentifiedAction<Int, FolderAction>)

  static let describedCases: [DescribedCase<Self>] = [
    .init(.compose("hi"), "Starts a message"),
    .init(.delivered(messageID: 7), "The server took the message", sentBy: .httpEffect),
    .init(.internal(.poll), "What the mail's effects report", sentBy: InternalSender("the mail's own effects")),
    .init(.folders(.element(id: 1, action: .open)), "A folder's action"),
  ]
}

enum MailInternalAction: Equatable, DescribedAction {
  case poll
  case synced(count: Int)

  static let describedCases: [DescribedCase<Self>] = [
    .init(.poll, "Looks for new mail"),
    .init(.synced(count: 2), "New mail arrived", sentBy: .timerEffect),
  ]
}

enum FolderAction: Equatable, DescribedAction {
  case open
  case refreshed

  static let describedCases: [DescribedCase<Self>] = [
    .init(.open, "Opens the folder"),
    .init(.refreshed, "Storage listed the folder", sentBy: .storageEffect),
  ]
}

/// Which actions only effects send: marked in the listing, found in an
/// action's JSON, and left out of what a person is offered.
@Suite struct InternalActionTests {
  let schema = MailAction.actionSchema

  @Test func theListingMarksEachInternalActionWithItsInnermostSender() {
    let marks = schema.allPaths.map { "\($0.path): \($0.isInternal) \($0.sentBy ?? "-")" }
    #expect(
      marks == [
        "compose: false -",
        "delivered: true the HTTP effect",
        "internal.poll: true the mail's own effects",
        "internal.synced: true the timer effect",
        "folders[<id: Int>].open: false -",
        "folders[<id: Int>].refreshed: true the storage effect",
      ])
    #expect(schema.clientPaths.map(\.path) == ["compose", "folders[<id: Int>].open"])
  }

  static let actions: [(MailAction, String?)] = [
    (.compose("hi"), nil),
    (.delivered(messageID: 7), "the HTTP effect"),
    (.delivered(messageID: nil), "the HTTP effect"),
    (.internal(.poll), "the mail's own effects"),
    (.internal(.synced(count: 2)), "the timer effect"),
    (.folders(.element(id: 3, action: .open)), nil),
    (.folders(.element(id: 3, action: .refreshed)), "the storage effect"),
  ]

  @Test(arguments: actions)
  func findsWhoSendsAnAction(action: MailAction, sender: String?) throws {
    #expect(schema.internalSender(of: try JSONValue(encoding: action))?.description == sender)
  }

  @Test func jsonOutsideTheSchemaIsJudgedByTheCasesItMatched() {
    #expect(schema.internalSender(of: .object(["nonsense": .object([:])])) == nil)
    #expect(schema.internalSender(of: .object(["internal": .string("x")]))?.description == "the mail's own effects")
    #expect(schema.internalSender(of: .string("nonsense")) == nil)
    #expect(schema.internalSender(of: .int(3)) == nil)
  }

  /// Internal paths still parse (the daemon decides who may send them), but
  /// suggestions and the choices an error lists are a person's actions,
  /// unless the path already went into an internal group.
  static let mistakes: [(String, [String], String)] = [
    ("", [], "no action given; expected one of: compose, folders"),
    ("delivere", [], "unknown action 'delivere'; expected one of: compose, folders"),
    ("poll", [], "unknown action 'poll'; expected one of: compose, folders"),
    ("internal.pol", [], "unknown action 'internal.pol': did you mean internal.poll?"),
    ("internal", [], "internal is a group of actions; expected one of: poll, synced"),
    ("folders[1].refresh", [], "unknown action 'folders[1].refresh'; expected one of: open"),
    ("folders.open", [], "folders is a collection; name an element by id, as in folders[<id: Int>].<open>"),
  ]

  @Test(arguments: mistakes)
  func offersOnlyAPersonsActions(path: String, arguments: [String], message: String) {
    do {
      let action = try ActionPath.parse(path: path, arguments: arguments, schema: schema)
      Issue.record("'\(path)' \(arguments) parsed as \(action)")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func internalPathsStillParse() throws {
    #expect(try ActionPath.parse(path: "delivered", arguments: ["7"], as: MailAction.self) == .delivered(messageID: 7))
    #expect(
      try ActionPath.parse(path: "internal.synced", arguments: ["2"], as: MailAction.self)
        == .internal(.synced(count: 2)))
  }
}
