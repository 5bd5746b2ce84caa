import ComposableCore
import FoundationEssentials
import JSON

/// The shopping cart (seed 001's cart sheet): lines with quantities, the total,
/// and paying: a confirmation alert, the order sent over HTTP
/// (`POST {storeAPIBaseURL}/carts`), then a success or failure alert. A placed
/// order empties the cart.
///
/// An order in flight when storedaemon stopped is not sent again: the POST may
/// have reached the store, and sending it twice could place it twice. Its
/// answer is lost, so ``Action/recovered`` ends it as failed with
/// ``interruptedOrderMessage`` and the "Order not confirmed" alert
/// (``CartAlert/purchaseInterrupted(message:)``), keeping the cart so the customer can check and pay again. An order
/// whose answer is lost otherwise ends the same way, never with a plain
/// "try again later" that would have the customer pay twice: the network
/// worker ended after it was handed the POST (``EffectFailure/Kind/interrupted``),
/// or the store did not answer in time (``EffectFailure/Kind/timeout``).
///
/// The cart sells from ``State/catalog``, the product list's rows, shared
/// (``Shared``, a copy that costs nothing as it shares the rows' storage): the bundled catalog (``Product/bundledCatalog``)
/// until the live one loads, so `addItem(3)` alone is enough to add product
/// 3, with or without a network. Its lines' quantities are what the product
/// rows' counters show and change.
public struct Cart: Reducer {
  public struct State: Equatable, Sendable, Codable {
    /// The products the cart can sell, by id: the product list's rows,
    /// shared with it by the app's root (not part of the cart's JSON).
    @Shared public var catalog: IdentifiedArrayOf<ProductRow.State>
    /// The lines, in the order they were first added. Every change updates ``totalPrice``.
    public var items: IdentifiedArrayOf<CartItem> {
      didSet { totalPrice = Self.total(of: items) }
    }
    /// The sum of the lines' subtotals, rounded to the cent.
    public private(set) var totalPrice: Double
    /// The alert on screen, if any, with its title, message and buttons.
    public var alert: AlertState<CartAlert.Action>?
    /// Where the last order stands.
    public var orderStatus: OrderStatus
    /// Why the last cart action was refused (an unknown product, an empty cart,
    /// a change while an order is in flight); cleared by the next cart action.
    public var errorMessage: String?
    /// The customer the orders are placed for.
    public var userID: Int

    /// A cart; `catalog` gives it a catalog of its own (a test of the cart
    /// alone), else it is the product list's, shared by the app's root.
    public init(
      catalog: IdentifiedArrayOf<Product>? = nil,
      items: IdentifiedArrayOf<CartItem> = [], alert: AlertState<CartAlert.Action>? = nil,
      orderStatus: OrderStatus = .idle, errorMessage: String? = nil, userID: Int = 1
    ) {
      _catalog =
        catalog.map {
          Shared(wrappedValue: IdentifiedArrayOf(uniqueElements: $0.map { ProductRow.State(product: $0) }))
        }
        ?? Shared()
      self.items = items
      self.totalPrice = Self.total(of: items)
      self.alert = alert
      self.orderStatus = orderStatus
      self.errorMessage = errorMessage
      self.userID = userID
    }

    /// The total for a person to read, e.g. "$66.90".
    public var totalPriceText: String { StorePriceFormat.dollars(totalPrice) }

    /// Whether an order is in flight.
    public var isSending: Bool { orderStatus == .sending }

    /// Whether the cart waits on an effect: an order is in flight.
    /// ``Action/recovered`` fails what this covers.
    public var isAwaitingEffect: Bool { isSending }

    /// Sets the quantity of `product`'s line: 0 (or less) removes the line, a
    /// new product gets a line at the end. Refused while an order is in flight,
    /// with ``errorMessage`` saying so; returns whether the cart changed.
    @discardableResult
    public mutating func setQuantity(_ quantity: Int, of product: Product) -> Bool {
      let current = items[id: product.id]?.quantity ?? 0
      let quantity = max(0, quantity)
      guard quantity != current else { return false }
      guard !isSending else {
        errorMessage = "An order is being sent; the cart cannot change until it is answered."
        return false
      }
      if quantity == 0 {
        items.remove(id: product.id)
      } else if items[id: product.id] != nil {
        items[id: product.id]?.quantity = quantity
      } else {
        items.append(CartItem(product: product, quantity: quantity))
      }
      return true
    }

    static func total(of items: IdentifiedArrayOf<CartItem>) -> Double {
      (items.reduce(0) { $0 + $1.subtotal } * 100).rounded() / 100
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    /// Adds one unit of the catalog's product with this id (`cart.addItem 3`).
    /// An id the catalog lacks sets ``State/errorMessage`` instead.
    case addItem(Product.ID)
    /// "+" on a line: one more unit of a product already in the cart.
    case incrementItem(Product.ID)
    /// "−" on a line: one unit fewer; the line goes away at zero.
    case decrementItem(Product.ID)
    /// The trash button: removes the line whatever its quantity.
    case removeItem(Product.ID)
    /// "Pay": asks to confirm the total. Refused on an empty cart and ignored
    /// while an order is in flight.
    case payButtonTapped
    /// A button of the alert on screen, or its dismissal ("Done").
    case alert(PresentationAction<CartAlert.Action>)
    /// The store accepted the order.
    case orderPlaced(orderID: Int?)
    /// The order failed: not placed (``CartAlert/purchaseFailed(message:)``),
    /// or, when its answer was lost, perhaps placed
    /// (``CartAlert/purchaseInterrupted(message:)``).
    case orderFailed(EffectFailure)
    /// storedaemon recovered this state after stopping without finishing its
    /// effects; every effect that was in flight is gone. An order that was
    /// being sent fails with ``Cart/interruptedOrderMessage`` and the
    /// ``CartAlert/purchaseInterrupted(message:)`` alert, without being sent again (its
    /// outcome is unknown); otherwise nothing happens.
    case recovered
  }

  /// Why an order that was in flight when storedaemon stopped failed: its
  /// answer is lost, so whether the store placed it is unknown.
  public static let interruptedOrderMessage =
    "storedaemon restarted while the order was being sent; it \(unknownOutcome)"

  /// What every message about an order whose answer was lost ends with.
  static let unknownOutcome = "may or may not have been placed. Check your orders before paying again."

  /// Why an order failed when `failure` leaves open whether the store placed
  /// it, or `nil` when the failure says it was not placed. A POST handed to
  /// the network worker, which then ended, may have reached the store; so may
  /// one the store did not answer in time. A `connection` failure is taken as
  /// not placed: it is nearly always a connection that could not be opened,
  /// and its kind does not tell the rare one cut after the POST went out.
  static func unknownOutcomeMessage(for failure: EffectFailure) -> String? {
    switch failure.kind {
    case .interrupted: "The order was sent, but its answer was lost; it \(unknownOutcome)"
    case .timeout: "The store did not answer in time; the order \(unknownOutcome)"
    case .connection, .httpStatus, .decoding, .storage, .workerUnavailable, .invalidRequest: nil
    }
  }

  enum CancelID { case order }

  /// The store's web API as a sentence names it (``EffectFailure/sentence(about:)``).
  static let serviceName = "the store"

  @Dependency(\.configuration) var configuration
  @Dependency(\.date) var date

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addItem(let id):
        state.errorMessage = nil
        guard let product = state.catalog[id: id]?.product else {
          state.errorMessage =
            state.catalog.isEmpty
            ? "Product \(id) is not in the catalog: the catalog is empty."
            : "Product \(id) is not in the catalog."
          return .none
        }
        state.setQuantity((state.items[id: id]?.quantity ?? 0) + 1, of: product)
        return .none

      case .incrementItem(let id), .decrementItem(let id), .removeItem(let id):
        state.errorMessage = nil
        guard let item = state.items[id: id] else {
          state.errorMessage = "Product \(id) is not in the cart."
          return .none
        }
        let quantity =
          switch action {
          case .incrementItem: item.quantity + 1
          case .decrementItem: item.quantity - 1
          default: 0
          }
        state.setQuantity(quantity, of: item.product)
        return .none

      case .payButtonTapped:
        guard !state.isSending else { return .none }
        state.errorMessage = nil
        guard !state.items.isEmpty else {
          state.errorMessage = "The cart is empty: add a product before paying."
          return .none
        }
        state.alert = CartAlert.confirmPurchase(total: state.totalPrice)
        return .none

      case .alert(.presented(.confirmPurchase)):
        // Pressable only on the confirmation (the alert reducer below checks
        // the buttons shown), which then closes.
        state.orderStatus = .sending
        return sendOrder(state)

      case .alert(.presented(.cancelPurchase)), .alert(.dismiss):
        return .none

      case .orderPlaced(let orderID):
        state.orderStatus = .placed(orderID: orderID)
        state.items.removeAll()
        state.alert = CartAlert.purchaseSucceeded(orderID: orderID)
        return .none

      case .orderFailed(let failure):
        if let message = Self.unknownOutcomeMessage(for: failure) {
          state.orderStatus = .failed(message)
          state.alert = CartAlert.purchaseInterrupted(message: message)
        } else {
          let reason = failure.sentence(about: Self.serviceName)
          state.orderStatus = .failed(reason + " The order was not placed.")
          state.alert = CartAlert.purchaseFailed(message: reason)
        }
        return .none

      case .recovered:
        guard state.isAwaitingEffect else { return .none }
        state.orderStatus = .failed(Self.interruptedOrderMessage)
        state.alert = CartAlert.purchaseInterrupted(message: Self.interruptedOrderMessage)
        return .none
      }
    }
    .ifLet(\.alert, action: CasePath(Action.alert, \.alert))
  }

  /// `POST {storeAPIBaseURL}/carts` with the cart's lines. Any 2xx answer is an
  /// accepted order; its `id`, if the body has one, names the order.
  private func sendOrder(_ state: State) -> Effect<Action> {
    let order = OrderRequest(
      userId: state.userID,
      date: date.now.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
      products: state.items.map { OrderLine(productId: $0.id, quantity: $0.quantity) })
    guard
      let request = try? HTTPRequest.json(
        "POST", "\(configuration.storeAPIBaseURL)/carts", body: order, timeout: configuration.requestTimeout)
    else {
      return .send(.orderFailed(EffectFailure(.invalidRequest, "The order could not be encoded as JSON.")))
    }
    return .http(request) { result in
      switch result {
      case .success(let response):
        .orderPlaced(orderID: (try? JSONValueDecoder.decode(OrderReceipt.self, fromJSON: response.body))?.id)
      case .failure(let failure):
        .orderFailed(failure)
      }
    }
    .cancellable(id: CancelID.order, cancelInFlight: true)
  }
}

extension Cart: RecoverableFeature {
  /// ``Action/recovered`` while an effect is awaited (``State/isAwaitingEffect``).
  public func recoveryAction(for state: State) -> Action? {
    state.isAwaitingEffect ? .recovered : nil
  }
}

extension Cart.Action {
  var alert: PresentationAction<CartAlert.Action>? { if case .alert(let action) = self { action } else { nil } }
}

extension Cart.State {
  private enum CodingKeys: String, CodingKey {
    case catalog, items, totalPrice, alert, orderStatus, errorMessage, userID
  }

  /// Decodes the state; the catalog is the product list's, shared, not
  /// read here (a state saved before it was shared holds a copy, which is
  /// left), and an alert saved by a storedaemon from before `AlertState`
  /// (its case, `{"confirmPurchase":{"total":…}}`) is read as the alert it
  /// stood for.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let alert: AlertState<CartAlert.Action>?
    do {
      alert = try container.decodeIfPresent(AlertState<CartAlert.Action>.self, forKey: .alert)
    } catch let error as DecodingError {
      guard let legacy = try? container.decode(LegacyCartAlert.self, forKey: .alert) else { throw error }
      alert = legacy.alert
    }
    self.init(
      items: try container.decode(IdentifiedArrayOf<CartItem>.self, forKey: .items), alert: alert,
      orderStatus: try container.decode(OrderStatus.self, forKey: .orderStatus),
      errorMessage: try container.decodeIfPresent(String.self, forKey: .errorMessage),
      userID: try container.decode(Int.self, forKey: .userID))
  }
}
