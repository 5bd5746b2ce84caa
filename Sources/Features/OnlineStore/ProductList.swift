import ComposableCore

/// The store's catalog (seed 001's product list tab): one ``ProductRow`` with
/// its add-to-cart counter per product.
///
/// The catalog ships bundled (``Product/bundledCatalog``, status ``StoreLoadStatus/bundled``),
/// so the list and the cart work before any fetch and without a network.
/// ``Action/fetchProducts`` gets the live catalog from
/// `GET {storeAPIBaseURL}/products`, which replaces the rows when it arrives; if
/// the fetch fails, the rows shown stay and the status says why, and fetching
/// again retries. If storedaemon restarts while the live catalog is loading,
/// ``Action/recovered`` fetches it again: a GET is safe to repeat.
///
/// A row's counter is the ``Cart``'s quantity of its product, shared
/// (``AddToCart``): the app's root connects them.
public struct ProductList: Reducer {
  public struct State: Equatable, Sendable, Codable {
    /// Whether the rows are the bundled catalog, the live one is loading or
    /// loaded, or the last fetch failed (and why).
    public var status: StoreLoadStatus
    /// The products in the API's order, each with its counter.
    public var rows: IdentifiedArrayOf<ProductRow.State>

    /// By default, the bundled catalog.
    public init(status: StoreLoadStatus = .bundled, rows: IdentifiedArrayOf<ProductRow.State> = Self.bundledRows) {
      self.status = status
      self.rows = rows
    }

    /// ``Product/bundledCatalog`` as rows.
    public static var bundledRows: IdentifiedArrayOf<ProductRow.State> {
      IdentifiedArrayOf(uniqueElements: Product.bundledCatalog.map { ProductRow.State(product: $0) })
    }

    /// The products, in list order.
    public var products: [Product] { rows.map(\.product) }

    /// Whether the list waits on an effect: the live catalog is loading.
    /// ``Action/recovered`` restarts what this covers.
    public var isAwaitingEffect: Bool { status.isLoading }
  }

  public enum Action: Equatable, Sendable, Codable {
    /// Fetches the live catalog (sent when the list appears, and by Retry).
    /// Does nothing while loading or once the live catalog is loaded.
    case fetchProducts
    /// The live products arrived: they replace the rows, whose counters show
    /// the cart's quantities.
    case productsResponse([Product])
    /// The products could not be fetched or decoded: the rows shown stay.
    case productsFailed(EffectFailure)
    /// An action of one product's row.
    case rows(IdentifiedAction<Product.ID, ProductRow.Action>)
    /// storedaemon recovered this state after stopping without finishing its
    /// effects; every effect that was in flight is gone. A catalog that was
    /// loading is fetched again; otherwise nothing happens.
    case recovered

    var rows: IdentifiedAction<Product.ID, ProductRow.Action>? {
      if case .rows(let action) = self { action } else { nil }
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
        return fetch()

      case .productsResponse(let products):
        state.status = .loaded
        // The server's data must not crash the store: a repeated id keeps its first product.
        var rows = IdentifiedArrayOf<ProductRow.State>()
        for product in products { rows.append(ProductRow.State(product: product)) }
        state.rows = rows
        return .none

      case .productsFailed(let failure):
        state.status = .failed(failure.sentence(about: Cart.serviceName))
        return .none

      case .rows:
        return .none

      case .recovered:
        guard state.isAwaitingEffect else { return .none }
        return fetch()
      }
    }
    .forEach(\.rows, action: CasePath(Action.rows, \.rows)) {
      ProductRow()
    }
  }

  /// `GET {storeAPIBaseURL}/products`, answered by ``Action/productsResponse(_:)``
  /// or ``Action/productsFailed(_:)``; it replaces the fetch in flight.
  private func fetch() -> Effect<Action> {
    let request = HTTPRequest.get("\(configuration.storeAPIBaseURL)/products", timeout: configuration.requestTimeout)
    return .http(request, decoding: [Product].self) { result in
      switch result {
      case .success(let products): .productsResponse(products)
      case .failure(let failure): .productsFailed(failure)
      }
    }
    .cancellable(id: CancelID.fetch, cancelInFlight: true)
  }
}

extension ProductList: RecoverableFeature {
  /// ``Action/recovered`` while an effect is awaited (``State/isAwaitingEffect``).
  public func recoveryAction(for state: State) -> Action? {
    state.isAwaitingEffect ? .recovered : nil
  }
}
