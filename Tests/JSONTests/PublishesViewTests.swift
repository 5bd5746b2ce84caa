import JSON
import Testing

/// A state's view is published beside its members by every way the encoder
/// is entered, and never read back.
@Suite struct PublishesViewTests {
  struct Line: Codable, Equatable, PublishesView {
    var price: Int
    var quantity: Int
    struct View: Encodable { let subtotal: Int }
    var view: View { View(subtotal: price * quantity) }
  }

  struct Cart: Codable, Equatable, PublishesView {
    var lines: [Line]
    struct View: Encodable { let count: Int }
    var view: View { View(count: lines.reduce(0) { $0 + $1.quantity }) }
  }

  let cart = Cart(lines: [Line(price: 3, quantity: 2)])
  let expected: JSONValue = .object([
    "lines": .array([.object(["price": .int(3), "quantity": .int(2), "view": .object(["subtotal": .int(6)])])]),
    "view": .object(["count": .int(2)]),
  ])

  @Test func theViewIsEncodedBesideTheMembers() throws {
    #expect(try JSONValueEncoder.encode(cart) == expected)
    #expect(try JSONValue(encoding: cart) == expected)
  }

  @Test func aCachedEncodingPublishesTheSameViews() throws {
    let cache = JSONMemberCache()
    #expect(try JSONValueEncoder.encode(cart, reusing: cache) == expected)
    var changed = cart
    changed.lines[0].quantity = 5
    let again = try JSONValueEncoder.encode(changed, reusing: cache)
    #expect(again == (try JSONValueEncoder.encode(changed)))
    #expect(try JSONValueEncoder.encodeMember(changed, key: "cart", reusing: JSONMemberCache()) == again)
  }

  @Test func aDocumentMadeOfPartsGetsItsRootsView() throws {
    let view: JSONValue = .object(["count": .int(2)])
    #expect(try JSONValueEncoder.view(of: cart) == view)
    #expect(try JSONValueEncoder.view(of: 3) == nil)
  }

  @Test func theViewIsNotReadBack() throws {
    #expect(try JSONValueDecoder.decode(Cart.self, from: expected) == cart)
  }
}
