extension FakeSeedAPI {
  /// The endpoints the seed apps call, each under its API's path prefix.
  public enum Route: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// `GET /store/products`: the catalog (the `ProductList` feature).
    case products
    /// `GET /store/users/{id}`: a customer's profile (`Profile`).
    case user
    /// `POST /store/carts`: placing an order (`Cart`).
    case carts
    /// `GET /numbers/{n}`: a number fact (`Counter`).
    case numberFact
    /// `GET /gifs/v1/gifs/search?api_key=…&q=…`: the GIF search (`GIFSearch`).
    case gifSearch

    /// The method the route answers; any other gets 405.
    public var method: String {
      switch self {
      case .carts: "POST"
      case .products, .user, .numberFact, .gifSearch: "GET"
      }
    }

    public var description: String {
      switch self {
      case .products: "GET /store/products"
      case .user: "GET /store/users/{id}"
      case .carts: "POST /store/carts"
      case .numberFact: "GET /numbers/{n}"
      case .gifSearch: "GET /gifs/v1/gifs/search"
      }
    }

    /// The route `request`'s path belongs to, whatever its method, or `nil`.
    public init?(of request: RecordedRequest) {
      let segments = request.pathSegments.map(String.init)
      guard let prefix = segments.first else { return nil }
      let rest = Array(segments.dropFirst())
      switch (prefix, rest.first, rest.count) {
      case (FakeSeedAPI.storePrefix, "products"?, 1): self = .products
      case (FakeSeedAPI.storePrefix, "users"?, 2): self = .user
      case (FakeSeedAPI.storePrefix, "carts"?, 1): self = .carts
      case (FakeSeedAPI.numbersPrefix, _, 1): self = .numberFact
      case (FakeSeedAPI.gifsPrefix, _, _) where rest == ["v1", "gifs", "search"]: self = .gifSearch
      default: return nil
      }
    }
  }
}
