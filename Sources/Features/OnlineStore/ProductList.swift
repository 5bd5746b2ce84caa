import ComposableCore

/// The store's catalog (seed 001's product list tab): fetched over HTTP from
/// `GET {storeAPIBaseURL}/products`, one ``ProductRow`` with its add-to-cart
/// counter per product.
///
/// The counters only say how many units the customer wants; keeping them in
/// step with the ``Cart`` is ``OnlineStoreCoordinator``'s job.
public struct ProductList: Reducer {
  public struct State: Equatable, Sendable, Codable {
    /// Whether the products are loading, loaded, or failed to load (and why).
    public var status: StoreLoadStatus
    /// The products in the API's order, with their counters.
    public var rows: IdentifiedArrayOf<ProductRow.State>

    public init(status: StoreLoadStatus = .idle, rows: IdentifiedArrayOf<ProductRow.State> = []) {
      self.status = status
      self.rows = rows
    }

    /// The products, in list order.
    public var products: [Product] { rows.map(\.product) }
  }

  public enum Action: Equatable, Sendable, Codable {
    /// Loads the products (sent when the list appears, and by Retry). Does
    /// nothing while loading or once loaded.
    case fetchProducts
    /// The products arrived: the rows are rebuilt, every counter at zero.
    case productsResponse([Product])
    /// The products could not be fetched or decoded.
    case productsFailed(EffectFailure)
    /// An action of one product's row.
    case rows(IdentifiedAction<Product.ID, ProductRow.Action>)

    var rows: IdentifiedAction<Product.ID, ProductRow.Action>? {
      if case let .rows(action) = self { action } else { nil }
    }
  }

  enum CancelID { case fetch }

  @Dependency(\.configuration) var configuration

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .fetchProducts:
        guard state.status.canFetch else { return .none }
        state.status = .loading
        let request = HTTPRequest.get("\(configuration.storeAPIBaseURL)/products", timeout: configuration.requestTimeout)
        return .http(request, decoding: [Product].self) { result in
          switch result {
          case .success(let products): .productsResponse(products)
          case .failure(let failure): .productsFailed(failure)
          }
        }
        .cancellable(id: CancelID.fetch, cancelInFlight: true)

      case .productsResponse(let products):
        state.status = .loaded
        // The server's data must not crash the store: a repeated id keeps its first product.
        var rows = IdentifiedArrayOf<ProductRow.State>()
        for product in products { rows.append(ProductRow.State(product: product)) }
        state.rows = rows
        return .none

      case .productsFailed(let failure):
        state.status = .failed(failure.message)
        return .none

      case .rows:
        return .none
      }
    }
    .forEach(\.rows, action: CasePath(Action.rows, \.rows)) {
      ProductRow()
    }
  }
}
