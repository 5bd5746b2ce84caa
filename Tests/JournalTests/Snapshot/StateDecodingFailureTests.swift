import JSON
import Testing

@testable import Journal

@Suite struct StateDecodingFailureTests {
  struct State: Decodable {
    struct Item: Decodable {
      var id: Int
      var price: Double
    }
    var cart: [Item]
    var name: String
  }

  func decodingFailure(_ json: JSONValue) -> StateDecodingFailure? {
    do {
      _ = try CanonicalJSON.decode(State.self, from: json)
      return nil
    } catch let error as DecodingError {
      return StateDecodingFailure(error, path: "/var/lib/storedaemon/journal/snapshot-1.snapshot", version: 9)
    } catch {
      return nil
    }
  }

  @Test func typeMismatchNamesTheField() throws {
    let json: JSONValue = .object([
      "cart": .array([
        .object(["id": .int(1), "price": .double(2.5)]), .object(["id": .int(2), "price": .string("cheap")]),
      ]),
      "name": .string("x"),
    ])
    let failure = try #require(decodingFailure(json))
    #expect(failure.field == "cart[1].price")
    #expect(failure.description.contains("/var/lib/storedaemon/journal/snapshot-1.snapshot"))
    #expect(failure.description.contains("version 9"))
    #expect(failure.description.contains("at cart[1].price"))
    #expect(failure.description.contains("left untouched"))
    #expect(failure.description.contains("shape changed"))
  }

  @Test func missingMemberNamesIt() throws {
    let failure = try #require(decodingFailure(.object(["cart": .array([])])))
    #expect(failure.field == "name")
    #expect(failure.detail.contains("\"name\" is missing"))
  }

  @Test func rootMismatch() throws {
    let failure = try #require(decodingFailure(.array([])))
    #expect(failure.field == "(root)")
  }
}
