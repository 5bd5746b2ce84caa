import ComposableCore
import Foundation
import JSON
import Testing

@Suite struct StackStateTests {
  @Test func pushingAndPoppingKeepsOrderAndNeverReusesAnID() {
    var stack = StackState<String>(["list"])
    var pushed = [stack.append("detail"), stack.append("edit")]
    #expect(pushed == [1, 2])
    #expect(Array(stack) == ["list", "detail", "edit"])
    let popped = stack.popLast()
    #expect(popped == "edit")
    pushed = [stack.append("other")]
    #expect(pushed == [3])
    var found = stack.pop(to: 1)
    #expect(found && stack.ids == [0, 1])
    found = stack.pop(from: 0)
    #expect(found && stack.isEmpty)
    found = stack.pop(from: 0)
    #expect(!found)
    pushed = [stack.append("again")]
    #expect(pushed == [4])
  }

  @Test func settingAScreenToNilPopsItAndThoseAbove() {
    var stack = StackState<String>(["a", "b", "c"])
    stack[id: 1] = "B"
    #expect(Array(stack) == ["a", "B", "c"])
    stack[id: 1] = nil
    #expect(Array(stack) == ["a"])
  }

  /// The JSON a client reads: each screen with its id, and the next id.
  @Test func encodesEachScreenWithItsIDAndTheNextID() throws {
    var stack = StackState<String>(["list", "detail"])
    stack.popLast()
    let json = try JSONValue(encoding: stack)
    #expect(CanonicalJSON.text(json) == #"{"elements":[{"id":0,"state":"list"}],"nextID":2}"#)
    #expect(try CanonicalJSON.decode(StackState<String>.self, from: json) == stack)
  }

  @Test(arguments: [
    (#"{"elements":[{"id":1,"state":"a"},{"id":0,"state":"b"}],"nextID":2}"#, "ids increase from bottom to top"),
    (#"{"elements":[{"id":0,"state":"a"},{"id":0,"state":"b"}],"nextID":2}"#, "Duplicate id 0"),
    (#"{"elements":[{"id":3,"state":"a"}],"nextID":3}"#, "next id is above every id"),
  ])
  func aStackWhoseIDsCouldBeReusedIsRefused(_ text: String, _ message: String) throws {
    let json = try JSONParser.parse(Array(text.utf8))
    #expect {
      try CanonicalJSON.decode(StackState<String>.self, from: json)
    } throws: { error in
      "\(error)".contains(message)
    }
  }
}
