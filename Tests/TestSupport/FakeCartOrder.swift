/// A cart as fakestoreapi.com's `POST /carts` takes it,
/// `{"userId":1,"date":"2020-02-03","products":[{"productId":5,"quantity":1}]}`,
/// and answers it, with the new cart's `id` added.
struct FakeCartOrder: Codable, Equatable, Sendable {
  struct Line: Codable, Equatable, Sendable {
    var productId: Int
    var quantity: Int
  }

  /// Set in the answer only.
  var id: Int?
  var userId: Int
  var date: String
  var products: [Line]
}
