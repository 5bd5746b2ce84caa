import ComposableCore

/// What the online store's screens show, published beside their state
/// (``PublishesView``): a thin client reads these rather than computing them.

extension CartItem: PublishesView {
  /// A cart line as its row shows it.
  public struct View: Encodable, Equatable, Sendable {
    /// The unit price, e.g. "$109.95".
    public let priceText: String
    /// `price × quantity`, in dollars, and as text, e.g. "$219.90".
    public let subtotal: Double
    public let subtotalText: String
  }

  public var view: View {
    View(
      priceText: StorePriceFormat.dollars(product.price), subtotal: subtotal,
      subtotalText: StorePriceFormat.dollars(subtotal))
  }
}

extension Cart.State: PublishesView {
  /// The cart as its sheet and the tab's badge show it.
  public struct View: Encodable, Equatable, Sendable {
    /// Units in the cart, for the badge on the cart's tab.
    public let itemCount: Int
    /// The total, e.g. "$275.89".
    public let totalText: String
    /// Whether "Pay" may be pressed: there is something to pay for and no
    /// order is in flight.
    public let isPayEnabled: Bool
    /// Where the last order stands, for a person: nil when there is nothing
    /// to say.
    public let orderText: String?
    /// Each product's quantity in the cart, by its id: what the product
    /// rows' counters show (a row's own count is the cart's, shared, and not
    /// in the row's JSON).
    public let quantities: [String: Int]
  }

  public var view: View {
    let orderText: String? =
      switch orderStatus {
      case .idle: nil
      case .sending: "Sending the order…"
      case .placed(let orderID): orderID.map { "Order \($0) placed." } ?? "Order placed."
      case .failed(let message): message
      }
    return View(
      itemCount: items.reduce(0) { $0 + $1.quantity }, totalText: totalPriceText,
      isPayEnabled: !items.isEmpty && !isSending, orderText: orderText,
      quantities: Dictionary(items.map { (String($0.id), $0.quantity) }, uniquingKeysWith: +))
  }
}

extension ProductRow.State: PublishesView {
  /// A product row as the list shows it.
  public struct View: Encodable, Equatable, Sendable {
    /// The price, e.g. "$109.95".
    public let priceText: String
  }

  public var view: View { View(priceText: StorePriceFormat.dollars(product.price)) }
}

extension StoreLoadStatus {
  /// What a screen says of its data's loading, for a person: nil when it
  /// shows the data and has nothing to add.
  var text: String? {
    switch self {
    case .idle, .loaded: nil
    case .bundled: "Showing the catalog that came with the app."
    case .loading: "Loading…"
    case .failed(let message): message
    }
  }
}

extension ProductList.State: PublishesView {
  /// The product list as its screen shows it.
  public struct View: Encodable, Equatable, Sendable {
    /// What the screen says of the catalog's loading, or nil.
    public let statusText: String?
    /// Whether "Retry" is offered: the last fetch failed.
    public let canRetry: Bool
  }

  public var view: View {
    if case .failed = status { return View(statusText: status.text, canRetry: true) }
    return View(statusText: status.text, canRetry: false)
  }
}

extension Profile.State: PublishesView {
  /// The profile as its screen shows it.
  public struct View: Encodable, Equatable, Sendable {
    /// "John Doe": the name capitalized, once loaded.
    public let displayName: String?
    /// What the screen says of the profile's loading, or nil.
    public let statusText: String?
    /// Whether "Retry" is offered: the last fetch failed.
    public let canRetry: Bool
  }

  public var view: View {
    let canRetry: Bool = if case .failed = status { true } else { false }
    return View(displayName: profile?.name.displayName, statusText: status.text, canRetry: canRetry)
  }
}
