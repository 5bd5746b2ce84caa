/// The seed apps' web APIs, faked in their real shapes on a local
/// ``TestHTTPServer``, so a daemon under test can be pointed at them:
///
/// | API | base URL | routes |
/// |---|---|---|
/// | fakestoreapi.com | ``storeAPIBaseURL`` (`…/store`) | `GET /products`, `GET /users/{id}`, `POST /carts` |
/// | numbersapi.com | ``numbersAPIBaseURL`` (`…/numbers`) | `GET /{n}` (text/plain) |
/// | Giphy | ``gifAPIBaseURL`` (`…/gifs`) | `GET /v1/gifs/search?api_key=…&q=…` |
///
/// ```swift
/// let api = try FakeSeedAPI()
/// let daemon = try DaemonProcess(arguments: api.daemonArguments)
/// api.setFault(.status(500), for: .products)          // the next fetches fail
/// api.setFault(.hang, for: .gifSearch, times: 1)       // the next search never answers
/// let orders = try api.waitForRequests(to: .carts, count: 1)
/// ```
///
/// What each route answers:
/// - `products`: ``productsJSON`` (by default fakestoreapi.com's products 1–3
///   verbatim plus product 21, "Fake Store Test Mug", which the real catalog
///   lacks); replace it with ``setProductsJSON(_:)``.
/// - `user`: fakestoreapi.com's users 1 and 2 verbatim (with `password`,
///   `address`, `__v`); any other id is 404.
/// - `carts`: a body of fakestoreapi's cart shape (`userId`, `date`,
///   `products` of `productId`/`quantity`) is echoed with a new `id` (11, 12,
///   … in order, fakestoreapi holding carts 1–10); any other body is 400.
/// - `numberFact`: ``numberFact(about:)`` as text/plain; a non-integer is 404.
/// - `gifSearch`: a missing `api_key` is 401, a wrong one 403, a missing `q`
///   400; otherwise a Giphy page of ``gifResultCount`` GIFs whose ids are
///   ``gifID(query:index:)`` (`cats-1`, `cats-2`, …).
/// - A known path with another method is 405; any other path 404.
///
/// Faults (``setFault(_:for:times:)``) replace or delay a route's answer, and
/// can be changed while requests run; every request is recorded, and
/// ``requests(to:)`` filters them by route.
public final class FakeSeedAPI: Sendable {
  /// The first path segment of each API.
  static let storePrefix = "store"
  static let numbersPrefix = "numbers"
  static let gifsPrefix = "gifs"

  /// The GIF API key the fake expects unless told another.
  public static let defaultGifAPIKey = "fake-giphy-key"

  /// The server the APIs run on: its recorded requests, waits and ``TestHTTPServer/stop()``.
  public let server: TestHTTPServer
  /// The API key the GIF search accepts.
  public let gifAPIKey: String
  private let routes: FakeSeedRoutes

  /// Starts the fake APIs on a new local server.
  public init(gifAPIKey: String = FakeSeedAPI.defaultGifAPIKey) throws {
    let routes = FakeSeedRoutes(gifAPIKey: gifAPIKey)
    self.gifAPIKey = gifAPIKey
    self.routes = routes
    // The server's handler holds the routes, not `self`, so dropping the
    // fake drops its server, whose deinit stops it.
    server = try TestHTTPServer { routes.respond(to: $0) }
  }

  // MARK: Addresses

  /// `http://127.0.0.1:PORT`.
  public var baseURL: String { server.baseURL }
  /// The store API's base, for `--store-api`: `http://127.0.0.1:PORT/store`.
  public var storeAPIBaseURL: String { "\(baseURL)/\(Self.storePrefix)" }
  /// The numbers API's base, for `--numbers-api`: `http://127.0.0.1:PORT/numbers`.
  public var numbersAPIBaseURL: String { "\(baseURL)/\(Self.numbersPrefix)" }
  /// The GIF API's base, for `--gif-api`: `http://127.0.0.1:PORT/gifs`.
  public var gifAPIBaseURL: String { "\(baseURL)/\(Self.gifsPrefix)" }

  /// The storedaemon flags that point every feature at this fake:
  /// `--store-api URL --numbers-api URL --gif-api URL --gif-api-key KEY`.
  public var daemonArguments: [String] {
    [
      "--store-api", storeAPIBaseURL, "--numbers-api", numbersAPIBaseURL, "--gif-api", gifAPIBaseURL,
      "--gif-api-key", gifAPIKey,
    ]
  }

  // MARK: Faults

  /// Makes `route` fail with `fault` for the next `times` requests (`nil`:
  /// until changed); `nil` clears the route's fault. Takes effect for
  /// requests that arrive after the call.
  public func setFault(_ fault: Fault?, for route: Route, times: Int? = nil) {
    precondition(times.map { $0 > 0 } ?? true, "a fault must apply to at least one request")
    routes.settings.withLock { settings in
      settings.faults[route] = fault.map { FakeSeedAPISettings.ActiveFault(fault: $0, remaining: times) }
    }
  }

  /// The fault `route` has now, if any.
  public func fault(for route: Route) -> Fault? {
    routes.settings.withLock { $0.faults[route]?.fault }
  }

  /// Clears every route's fault.
  public func clearFaults() {
    routes.settings.withLock { $0.faults.removeAll() }
  }

  // MARK: Data

  /// The body `GET /store/products` answers.
  public var productsJSON: String { routes.settings.withLock { $0.productsJSON } }

  /// Replaces the body `GET /store/products` answers (sent verbatim, so it
  /// may be any JSON, valid for the store or not).
  public func setProductsJSON(_ json: String) {
    routes.settings.withLock { $0.productsJSON = json }
  }

  /// How many GIFs a search finds, whatever the query (3 unless changed).
  public var gifResultCount: Int { routes.settings.withLock { $0.gifResultCount } }

  /// Sets how many GIFs a search finds (0 for none).
  public func setGifResultCount(_ count: Int) {
    precondition(count >= 0, "a search cannot find a negative number of GIFs")
    routes.settings.withLock { $0.gifResultCount = count }
  }

  /// The fact `GET /numbers/{number}` answers.
  public static func numberFact(about number: Int) -> String { FakeNumbersAPI.fact(about: number) }

  /// The id of the `index`-th GIF (from 1) a search for `query` finds, e.g. `cats-1`.
  public static func gifID(query: String, index: Int) -> String { FakeGiphyAPI.gifID(query: query, index: index) }

  // MARK: Requests

  /// Every request the fake received, in order.
  public var requests: [RecordedRequest] { server.requests }

  /// The requests received on `route`, in order.
  public func requests(to route: Route) -> [RecordedRequest] {
    server.requests.filter { Route(of: $0) == route }
  }

  /// Blocks until `count` requests arrived on `route`, and returns them.
  @discardableResult
  public func waitForRequests(to route: Route, count: Int, timeout: Duration = .seconds(60)) throws
    -> [RecordedRequest]
  {
    try server.waitForRequests(count: count, matching: { Route(of: $0) == route }, timeout: timeout)
  }

  /// Waits, without blocking the cooperative pool, until `count` requests
  /// arrived on `route`, and returns them.
  @discardableResult
  public func waitForRequests(to route: Route, count: Int, timeout: Duration = .seconds(60)) async throws
    -> [RecordedRequest]
  {
    try await server.waitForRequests(count: count, matching: { Route(of: $0) == route }, timeout: timeout)
  }

  /// The answer to `request`, faults included: the fake's handler, for a test
  /// that runs it on a server of its own.
  public func respond(to request: RecordedRequest) -> TestHTTPResponse {
    routes.respond(to: request)
  }

  /// Stops the server (see ``TestHTTPServer/stop()``).
  public func stop() { server.stop() }
}
