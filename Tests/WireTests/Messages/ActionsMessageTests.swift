import ComposableCore
import Testing
import Wire

/// The `actions` request: `all` asks for the internal actions too.
@Suite struct ActionsMessageTests {
  @Test func allIsOptionalAndWrittenOnlyWhenTrue() throws {
    #expect(
      try ClientMessage(json: .object(["type": .string("actions"), "id": .int(1)])) == .actions(id: 1, all: false))
    #expect(
      try ClientMessage(json: .object(["type": .string("actions"), "id": .int(2), "all": .bool(true)]))
        == .actions(id: 2, all: true))
    #expect(ClientMessage.actions(id: 1).json == .object(["type": .string("actions"), "id": .int(1)]))
    #expect(
      ClientMessage.actions(id: 2, all: true).json
        == .object(["type": .string("actions"), "id": .int(2), "all": .bool(true)]))
  }

  @Test func aMistypedAllIsRefused() {
    #expect {
      try ClientMessage(json: .object(["type": .string("actions"), "id": .int(1), "all": .string("yes")]))
    } throws: { error in
      (error as? MessageError)?.code == .invalidMessage
    }
  }
}
