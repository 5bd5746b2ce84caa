import ComposableCore
import Features
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The fake APIs answer what the features request, in shapes the features'
/// own types decode; faults change that on demand.
@Suite(.ownThreads, .timeLimit(.minutes(2)))
struct FakeSeedAPITests {
  @Test func productsDecodeAsTheStoresProducts() async throws {
    let api = try FakeSeedAPI()
    let response = try await URLSessionClient.fetch("\(api.storeAPIBaseURL)/products")
    #expect(response.status == 200)
    #expect(response.contentType == "application/json; charset=utf-8")
    let products = try JSONDecoder().decode([Product].self, from: response.body)
    #expect(products.map(\.id) == [1, 2, 3, 21])
    #expect(products[1].title == "Mens Casual Premium Slim Fit T-Shirts ")
    #expect(products[0].rating == ProductRating(rate: 3.9, count: 120))

    api.setProductsJSON(#"[{"id":5,"title":"Only","price":1,"description":"","category":"c","image":"i"}]"#)
    let replaced = try await URLSessionClient.fetch("\(api.storeAPIBaseURL)/products")
    #expect(try JSONDecoder().decode([Product].self, from: replaced.body).map(\.id) == [5])
  }

  @Test func usersDecodeAsProfilesAndUnknownUsersAreMissing() async throws {
    let api = try FakeSeedAPI()
    let john = try await URLSessionClient.fetch("\(api.storeAPIBaseURL)/users/1")
    #expect(try JSONDecoder().decode(UserProfile.self, from: john.body) == UserProfile.sample)
    #expect(john.text.contains(#""password":"#))
    let david = try await URLSessionClient.fetch("\(api.storeAPIBaseURL)/users/2")
    #expect(try JSONDecoder().decode(UserProfile.self, from: david.body).name.displayName == "David Morrison")
    #expect(try await URLSessionClient.fetch("\(api.storeAPIBaseURL)/users/3").status == 404)
    #expect(try await URLSessionClient.fetch("\(api.storeAPIBaseURL)/users/me").status == 404)
  }

  @Test func ordersAreEchoedWithNewCartIDs() async throws {
    let api = try FakeSeedAPI()
    let order = OrderRequest(
      userId: 1, date: "2023-11-14T22:13:20.000Z",
      products: [OrderLine(productId: 1, quantity: 2), OrderLine(productId: 3, quantity: 1)])
    let body = try JSONEncoder().encode(order)
    let first = try await URLSessionClient.fetch(
      "\(api.storeAPIBaseURL)/carts", method: "POST", body: body, headers: ["Content-Type": "application/json"])
    #expect(first.status == 200)
    #expect(try JSONDecoder().decode(OrderReceipt.self, from: first.body) == OrderReceipt(id: 11))
    #expect(try JSONDecoder().decode(OrderRequest.self, from: first.body) == order)
    let second = try await URLSessionClient.fetch("\(api.storeAPIBaseURL)/carts", method: "POST", body: body)
    #expect(try JSONDecoder().decode(OrderReceipt.self, from: second.body) == OrderReceipt(id: 12))

    let notACart = try await URLSessionClient.fetch(
      "\(api.storeAPIBaseURL)/carts", method: "POST", body: Data(#"{"userId":"one"}"#.utf8))
    #expect(notACart.status == 400)
    #expect(try await URLSessionClient.fetch("\(api.storeAPIBaseURL)/carts").status == 405)

    let orders = try await api.waitForRequests(to: .carts, count: 4)
    #expect(try orders[0].decodeBody(as: OrderRequest.self) == order)
    #expect(orders.map(\.method) == ["POST", "POST", "POST", "GET"])
  }

  @Test func numberFactsAreTextAboutTheNumber() async throws {
    let api = try FakeSeedAPI()
    let fact = try await URLSessionClient.fetch("\(api.numbersAPIBaseURL)/42", headers: ["Accept": "text/plain"])
    #expect(fact.status == 200)
    #expect(fact.contentType == "text/plain; charset=utf-8")
    #expect(fact.text == FakeSeedAPI.numberFact(about: 42))
    #expect(fact.text.hasPrefix("42 is "))
    #expect(try await URLSessionClient.fetch("\(api.numbersAPIBaseURL)/-3").text == FakeSeedAPI.numberFact(about: -3))
    #expect(FakeSeedAPI.numberFact(about: 42) != FakeSeedAPI.numberFact(about: 43))
    #expect(try await URLSessionClient.fetch("\(api.numbersAPIBaseURL)/forty-two").status == 404)
  }

  @Test func gifSearchesChecksTheKeyAndFindsGifsOfTheQuery() async throws {
    let api = try FakeSeedAPI(gifAPIKey: "secret")
    let search = "\(api.gifAPIBaseURL)/v1/gifs/search"
    let cats = try await URLSessionClient.fetch(
      "\(search)?api_key=secret&q=cats%20%26%20dogs&limit=25&offset=0&rating=g&lang=en")
    #expect(cats.status == 200)
    let page = try JSONDecoder().decode(GifSearchResponse.self, from: cats.body)
    #expect(page.data.map(\.id) == ["cats-dogs-1", "cats-dogs-2", "cats-dogs-3"])
    #expect(page.data.map(\.id) == (1...3).map { FakeSeedAPI.gifID(query: "cats & dogs", index: $0) })
    #expect(page.data[0].user?.username == "fakegiphy")
    #expect(page.data[1].user == nil)
    #expect(GifCard(page.data[0]).width == 480)

    api.setGifResultCount(1)
    let one = try await URLSessionClient.fetch("\(search)?api_key=secret&q=Caf%C3%A9")
    #expect(try JSONDecoder().decode(GifSearchResponse.self, from: one.body).data.map(\.id) == ["cafue9-1"])
    #expect(try await URLSessionClient.fetch("\(search)?q=cats").status == 401)
    #expect(try await URLSessionClient.fetch("\(search)?api_key=wrong&q=cats").status == 403)
    #expect(try await URLSessionClient.fetch("\(search)?api_key=secret").status == 400)
    #expect(api.requests(to: .gifSearch).count == 5)
    #expect(api.requests(to: .gifSearch)[0].query("q") == "cats & dogs")
  }

  @Test func faultsReplaceAnswersUntilClearedOrSpent() async throws {
    let api = try FakeSeedAPI()
    let products = "\(api.storeAPIBaseURL)/products"
    api.setFault(.status(500), for: .products)
    #expect(api.fault(for: .products) == .status(500))
    #expect(try await URLSessionClient.fetch(products).status == 500)
    #expect(try await URLSessionClient.fetch(products).status == 500)
    #expect(try await URLSessionClient.fetch("\(api.storeAPIBaseURL)/users/1").status == 200)
    api.setFault(nil, for: .products)
    #expect(try await URLSessionClient.fetch(products).status == 200)

    api.setFault(.status(503), for: .numberFact, times: 1)
    #expect(try await URLSessionClient.fetch("\(api.numbersAPIBaseURL)/1").status == 503)
    #expect(try await URLSessionClient.fetch("\(api.numbersAPIBaseURL)/1").status == 200)
    #expect(api.fault(for: .numberFact) == nil)

    api.setFault(.malformedBody, for: .products)
    let malformed = try await URLSessionClient.fetch(products)
    #expect(malformed.status == 200)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode([Product].self, from: malformed.body) }
    api.clearFaults()
    #expect(api.fault(for: .products) == nil)
  }

  @Test func delayAndHangFaultsHoldTheAnswer() async throws {
    let api = try FakeSeedAPI()
    api.setFault(.delay(.milliseconds(300)), for: .user)
    let start = ContinuousClock.now
    let late = try await URLSessionClient.fetch("\(api.storeAPIBaseURL)/users/1")
    #expect(ContinuousClock.now - start >= .milliseconds(300))
    #expect(late.status == 200)

    api.setFault(.hang, for: .gifSearch)
    await #expect(throws: (any Error).self) {
      _ = try await URLSessionClient.fetch("\(api.gifAPIBaseURL)/v1/gifs/search?api_key=x&q=y", timeout: 1)
    }
    #expect(try await api.server.waitForAbandonedRequests(count: 1).map(\.path) == ["/gifs/v1/gifs/search"])
  }

  @Test func addressesAndDaemonArgumentsPointAtTheFake() throws {
    let api = try FakeSeedAPI()
    let base = "http://127.0.0.1:\(api.server.port)"
    #expect(api.baseURL == base)
    #expect(api.storeAPIBaseURL == "\(base)/store")
    #expect(api.numbersAPIBaseURL == "\(base)/numbers")
    #expect(api.gifAPIBaseURL == "\(base)/gifs")
    #expect(
      api.daemonArguments == [
        "--store-api", "\(base)/store", "--numbers-api", "\(base)/numbers", "--gif-api", "\(base)/gifs",
        "--gif-api-key", FakeSeedAPI.defaultGifAPIKey,
      ])
  }

  @Test func unknownPathsAreNotFound() async throws {
    let api = try FakeSeedAPI()
    #expect(try await URLSessionClient.fetch("\(api.baseURL)/store/nothing").status == 404)
    #expect(try await URLSessionClient.fetch("\(api.baseURL)/elsewhere").status == 404)
    let recorded = try await api.server.waitForRequests(count: 2)
    #expect(recorded.allSatisfy { FakeSeedAPI.Route(of: $0) == nil })
  }
}

/// The fake's products 1–3 and the features' bundled catalog were taken from
/// fakestoreapi.com independently; they must agree.
@Suite(.ownThreads) struct FakeCatalogAgreesWithTheBundledOne {
  @Test func productsOneToThreeAreTheSame() throws {
    let api = try FakeSeedAPI()
    let fake = try JSONDecoder().decode([Product].self, from: Data(api.productsJSON.utf8))
    #expect(Array(fake.prefix(3)) == Array(Product.bundledCatalog.prefix(3)))
    #expect(!Product.bundledCatalog.contains { $0.id == fake[3].id })
  }
}
