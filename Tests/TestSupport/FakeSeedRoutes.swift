import Foundation
import HTTP
import Synchronization

/// The request handling behind ``FakeSeedAPI``: finds a request's route,
/// applies the route's injected fault, and answers as the real API would.
/// Shared by the fake and its server's handler (on the server's threads), so
/// everything it changes is under one lock.
final class FakeSeedRoutes: Sendable {
  let gifAPIKey: String
  let settings = Mutex(FakeSeedAPISettings())

  init(gifAPIKey: String) {
    self.gifAPIKey = gifAPIKey
  }

  /// The answer to `request`.
  func respond(to request: RecordedRequest) -> TestHTTPResponse {
    guard let route = FakeSeedAPI.Route(of: request) else {
      return .text("Cannot \(request.method) \(request.path)\n", status: 404)
    }
    let fault = settings.withLock { $0.takeFault(for: route) }
    guard request.method == route.method || (request.method == "HEAD" && route.method == "GET") else {
      var answer = TestHTTPResponse.status(405)
      answer.headers.append(HTTPHeader("Allow", route.method))
      return answer
    }
    guard let fault else { return answer(route, request) }
    return fault.apply(to: self.answer(route, request))
  }

  /// What `route` answers to `request` when nothing is injected.
  private func answer(_ route: FakeSeedAPI.Route, _ request: RecordedRequest) -> TestHTTPResponse {
    switch route {
    case .products:
      return .json(settings.withLock { $0.productsJSON })
    case .user:
      let id = request.pathSegments.last.flatMap { Int($0) }
      guard let id, let user = FakeStoreData.usersJSON[id] else {
        return .text("User \(request.pathSegments.last ?? "") not found\n", status: 404)
      }
      return .json(user)
    case .carts:
      return placeOrder(request)
    case .numberFact:
      return FakeNumbersAPI.respond(toNumber: request.pathSegments.last ?? "")
    case .gifSearch:
      let count = settings.withLock { $0.gifResultCount }
      return FakeGiphyAPI.respond(to: request, apiKey: gifAPIKey, resultCount: count)
    }
  }

  /// `POST /carts`: echoes a cart of fakestoreapi's shape with the next cart id.
  private func placeOrder(_ request: RecordedRequest) -> TestHTTPResponse {
    var order: FakeCartOrder
    do {
      order = try JSONDecoder().decode(FakeCartOrder.self, from: request.body)
    } catch {
      return .text("The body is not a cart (userId, date, products of productId and quantity): \(error)\n", status: 400)
    }
    order.id = settings.withLock { settings in
      defer { settings.nextCartID += 1 }
      return settings.nextCartID
    }
    do {
      return try .json(encoding: order)
    } catch {
      return .text("could not encode the cart: \(error)\n", status: 500)
    }
  }
}
