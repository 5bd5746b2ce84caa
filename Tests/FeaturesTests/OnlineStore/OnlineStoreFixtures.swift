import ComposableCore
import FoundationEssentials
import JSON

@testable import Features

/// Requests and replies shaped like fakestoreapi.com's, shared by the online store's tests.
enum OnlineStoreFixtures {
  /// `GET https://store.test/products`, as ``ProductList`` must send it.
  static let productsRequest = EffectRequest.http(.get("https://store.test/products", timeout: .seconds(15)))

  /// `GET https://store.test/users/1`, as ``Profile`` must send it.
  static let profileRequest = EffectRequest.http(.get("https://store.test/users/1", timeout: .seconds(15)))

  /// `Product.samples` as the real API sends them (with `rating`, escaped slashes).
  static let productsJSON = #"""
    [{"id":1,"title":"Fjallraven - Foldsack No. 1 Backpack, Fits 15 Laptops","price":109.95,
    "description":"Your perfect pack for everyday use and walks in the forest.","category":"men's clothing",
    "image":"https:\/\/fakestoreapi.com\/img\/81fPKd-2AYL._AC_SL1500_.jpg","rating":{"rate":3.9,"count":120}},
    {"id":2,"title":"Mens Casual Premium Slim Fit T-Shirts","price":22.3,
    "description":"Slim-fitting style, contrast raglan long sleeve.","category":"men's clothing",
    "image":"https://fakestoreapi.com/img/71-3HjGNDUL._AC_SY879._SX._UX._SY._UY_.jpg","rating":{"rate":4.1,"count":259}},
    {"id":3,"title":"Mens Cotton Jacket","price":55.99,
    "description":"Great outerwear jackets for Spring, Autumn and Winter.","category":"men's clothing",
    "image":"https://fakestoreapi.com/img/71li-ujtlUL._AC_UX679_.jpg","rating":{"rate":4.7,"count":500}}]
    """#

  /// fakestoreapi.com's user 1, with the fields the store ignores.
  static let userJSON = #"""
    {"address":{"geolocation":{"lat":"-37.3159","long":"81.1496"},"city":"kilcoole","street":"new road",
    "number":7682,"zipcode":"12926-3874"},"id":1,"email":"john@gmail.com","username":"johnd",
    "password":"m38rmF$","name":{"firstname":"john","lastname":"doe"},"phone":"1-570-236-7033","__v":0}
    """#

  /// A 200 reply whose body is `json`, verbatim.
  static func ok(_ json: String) -> EffectReply {
    .http(HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Data(json.utf8)))
  }

  /// The rows of `Product.samples`.
  static func rows() -> IdentifiedArrayOf<ProductRow.State> {
    IdentifiedArrayOf(uniqueElements: Product.samples.map { ProductRow.State(product: $0) })
  }

  /// `Product.samples` as a catalog.
  static var catalog: IdentifiedArrayOf<Product> { IdentifiedArrayOf(uniqueElements: Product.samples) }

  /// The message the `.http(_:decoding:then:)` helper gives when `body` is not a `Value`.
  static func decodingMessage<Value: Decodable>(_ type: Value.Type, url: String, body: String) -> String {
    do {
      _ = try JSONValueDecoder.decode(type, fromJSON: Data(body.utf8))
      return "unexpectedly decoded"
    } catch {
      return "\(url): body is not a valid \(Value.self): \(error)"
    }
  }
}
