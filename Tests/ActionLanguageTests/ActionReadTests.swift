import ActionLanguage
import ComposableCore
import JSON
import Testing

/// A child that describes no case, presented by a host.
enum SilentAction: Equatable, DescribedAction {
  case speak
  static let describedCases: [DescribedCase<Self>] = []
}

enum HostAction: Equatable, DescribedAction {
  case sheet(PresentationAction<SilentAction>)
  static let describedCases: [DescribedCase<Self>] = [.init(.sheet(.dismiss), "The sheet")]
}

/// Reading a client's action refuses what the schema does not describe, at
/// every level, with what was expected.
@Suite struct ActionReadTests {
  func refusal(_ json: JSONValue) -> String? {
    do {
      _ = try ActionSchema.library.read(LibraryAction.self, json: json)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func aMemberBesideAnUnlabelledValueIsRefused() throws {
    let uuid = JSONValue.string("00000000-0000-0000-0000-000000000001")
    #expect(
      refusal(.object(["lookup": .object(["_0": uuid, "x": .int(1)])]))?
        .contains("unexpected member 'x' in lookup, which takes only '_0'") == true)
    #expect(
      refusal(.object(["move": .object(["_0": .int(1), "to": .string("top"), "x": .int(1)])]))?
        .contains("unexpected member 'x' in move") == true)
    #expect(refusal(.object(["lookup": .object(["_0": uuid])])) == nil)
  }

  @Test func aMemberBesideAStackElementIsRefused() {
    let element: JSONObject = ["id": .int(0), "action": .string("toggle")]
    #expect(refusal(.object(["screens": .object(["element": .object(element)])])) == nil)
    var extra = element
    extra["x"] = .int(1)
    #expect(
      refusal(.object(["screens": .object(["element": .object(extra)])]))?
        .contains("unexpected member 'x' in the element action of screens") == true)
    #expect(
      refusal(.object(["screens": .object(["element": .object(element), "x": .int(1)])]))?
        .contains("unexpected member 'x'") == true)
  }

  @Test func aPresentedChildWithoutCasesIsAProblem() {
    #expect(
      HostAction.actionSchema.allProblems.map(\.description) == ["SilentAction.describedCases: no case is described"])
  }
}
