import ComposableCore
import ComposableTesting
import Features
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Each feature's real request, sent over HTTP to the fake and its real
/// answer fed back: proof that the fake serves exactly the paths, methods and
/// shapes the features use.
@Suite(.ownThreads, .timeLimit(.minutes(2)))
struct FeaturesAgainstFakeSeedAPITests {
  /// 2023-11-14T22:13:20Z.
  static let now = Date(timeIntervalSince1970: 1_700_000_000)

  @Test func theProductListReplacesItsBundledCatalogWithTheFakesAfterARetry() async throws {
    let api = try FakeSeedAPI()
    let store = TestStore(initialState: ProductList.State()) {
      ProductList()
    } withDependencies: {
      $0.configuration = api.configuration
    }
    store.exhaustivity = .off
    api.setFault(.status(500), for: .products, times: 1)
    store.send(.fetchProducts)
    try await store.answerInFlightRequests()
    guard case .failed(let message) = store.state.status else {
      Issue.record("a 500 must fail the fetch, status is \(store.state.status)")
      return
    }
    #expect(message == "The store answered with status 500.")
    #expect(store.state.products == Product.bundledCatalog)

    store.send(.fetchProducts)
    try await store.answerInFlightRequests()
    #expect(store.state.status == .loaded)
    #expect(store.state.products.map(\.id) == [1, 2, 3, 21])
    #expect(api.requests(to: .products).count == 2)
  }

  @Test func theProfileLoadsTheFakesUser() async throws {
    let api = try FakeSeedAPI()
    let store = TestStore(initialState: Profile.State()) {
      Profile()
    } withDependencies: {
      $0.configuration = api.configuration
    }
    store.exhaustivity = .off
    store.send(.fetchProfile)
    try await store.answerInFlightRequests()
    #expect(store.state.profile == UserProfile.sample)
  }

  @Test func theCartPlacesItsOrderWithTheFake() async throws {
    let api = try FakeSeedAPI()
    let products = try JSONDecoder().decode([Product].self, from: Data(api.productsJSON.utf8))
    let initial = Cart.State(
      catalog: IdentifiedArrayOf(uniqueElements: products), items: [CartItem(product: products[2], quantity: 2)])
    let store = TestStore(initialState: initial) {
      Cart()
    } withDependencies: {
      $0.configuration = api.configuration
      $0.date = .constant(Self.now)
    }
    store.exhaustivity = .off
    store.send(.payButtonTapped)
    store.send(.alert(.presented(.confirmPurchase)))
    try await store.answerInFlightRequests()
    #expect(store.state.orderStatus == .placed(orderID: 11))
    let order = try #require(api.requests(to: .carts).first)
    #expect(order.header("Content-Type") == "application/json")
    #expect(
      order.bodyText == #"{"date":"2023-11-14T22:13:20.000Z","products":[{"productId":3,"quantity":2}],"userId":1}"#)
  }

  @Test func theCounterShowsTheFakesFact() async throws {
    let api = try FakeSeedAPI()
    let store = TestStore(initialState: Counter.State(count: 7)) {
      Counter()
    } withDependencies: {
      $0.configuration = api.configuration
    }
    store.exhaustivity = .off
    store.send(.numberFactButtonTapped)
    try await store.answerInFlightRequests()
    #expect(store.state.numberFact == FakeSeedAPI.numberFact(about: 7))
    #expect(store.state.isLoading == false)
  }

  @Test func theSearchShowsTheGifsOfItsQuery() async throws {
    let api = try FakeSeedAPI()
    let store = TestStore(initialState: GIFSearch.State()) {
      GIFSearch()
    } withDependencies: {
      $0.configuration = api.configuration
    }
    store.exhaustivity = .off
    store.send(.textChanged("cats & dogs"))
    store.advance(by: api.configuration.searchDebounce)
    try await store.answerInFlightRequests()
    #expect(store.state.results.ids == (1...3).map { FakeSeedAPI.gifID(query: "cats & dogs", index: $0) })
    #expect(store.state.errorMessage == nil)
    let search = try #require(api.requests(to: .gifSearch).first)
    #expect(search.query("api_key") == FakeSeedAPI.defaultGifAPIKey)
    #expect(search.query("q") == "cats & dogs")
  }
}

extension FakeSeedAPI {
  /// The app's configuration pointing every feature at this fake.
  var configuration: AppConfiguration {
    AppConfiguration(
      storeAPIBaseURL: storeAPIBaseURL, numbersAPIBaseURL: numbersAPIBaseURL, gifSearchBaseURL: gifAPIBaseURL,
      gifSearchAPIKey: gifAPIKey)
  }
}

extension TestStore {
  /// Performs every HTTP request in flight with URLSession, as the network
  /// worker would, delivers each response as its reply, and takes the state
  /// the resulting actions produced (the store is non-exhaustive).
  func answerInFlightRequests() async throws {
    for request in inFlight {
      guard case .http(let http) = request.request else { continue }
      respond(to: request.id, with: .http(try await Self.perform(http)))
    }
    skipReceivedActions()
  }

  private static func perform(_ request: HTTPRequest) async throws -> HTTPResponse {
    guard let url = URL(string: request.url) else { throw URLError(.badURL) }
    var urlRequest = URLRequest(url: url, timeoutInterval: Double(request.timeoutMilliseconds) / 1000)
    urlRequest.httpMethod = request.method
    urlRequest.httpBody = request.body
    for header in request.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    let (body, response) = try await session.data(for: urlRequest)
    guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
    return HTTPResponse(status: http.statusCode, body: body)
  }
}
