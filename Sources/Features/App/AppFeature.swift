import ComposableCore

/// The root of everything storedaemon hosts: the five seed apps side by side
/// under stable, readable names, plus the selected tab.
///
/// The names are the first step of every command-line action path:
/// `tcactl send cart.addItem 3` is `AppFeature.Action.cart(.addItem(3))`, and
/// `tcactl watch cart` shows `AppFeature.State.cart`.
///
/// | name | feature |
/// |---|---|
/// | `counter` | ``Counter``, the counter with number facts (seed 003) |
/// | `dice` | ``Dice``, the dice roller (seed 000) |
/// | `products`, `cart`, `profile` | ``ProductList``, ``Cart``, ``Profile``: the online store (seed 001); the rows' counters are the cart's quantities and the cart's catalog the list's rows, shared (``Shared``) |
/// | `bmi` | ``BMI``, the BMI calculator with history (seed 002) |
/// | `search` | ``GIFSearch``, the debounced GIF search (seed 004) |
/// | `parent` | ``Parent``, a counter with a settings screen presented over it (seed 003) |
/// | `inventory` | ``Inventory``, items with add and edit forms and a stack of detail and edit screens (seed 003) |
///
/// Selecting a tab whose data is fetched (products, profile, BMI history)
/// fetches it, as the seeds do when a screen appears: the products tab fetches
/// the live catalog over the bundled one. Fetching what is already loaded or
/// loading does nothing, and a failed fetch is retried by the tab's Retry
/// (`products.fetchProducts`), not by selecting the tab again.
///
/// After a crash, storedaemon recovers the state from its journal, but the
/// effects that were in flight (timers, HTTP requests, storage writes in the
/// worker processes) are gone. Each feature left waiting on one of them is a
/// ``RecoverableFeature`` and names its own recovery action, which restarts
/// what is safe to repeat and fails what is not; the body's scopes gather
/// them (``Reducer/recoveryActions(for:)``), and storedaemon reduces each,
/// recorded as sent by the recovery. With nothing waiting it reduces nothing.
public struct AppFeature: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var selectedTab: AppTab
    public var counter: Counter.State
    public var dice: Dice.State
    public var products: ProductList.State
    public var cart: Cart.State
    public var profile: Profile.State
    public var bmi: BMI.State
    public var search: GIFSearch.State
    public var parent: Parent.State
    public var inventory: Inventory.State

    public init(
      selectedTab: AppTab = .counter, counter: Counter.State = Counter.State(), dice: Dice.State = Dice.State(),
      products: ProductList.State = ProductList.State(), cart: Cart.State = Cart.State(),
      profile: Profile.State = Profile.State(), bmi: BMI.State = BMI.State(),
      search: GIFSearch.State = GIFSearch.State(), parent: Parent.State = Parent.State(),
      inventory: Inventory.State = Inventory.State()
    ) {
      self.selectedTab = selectedTab
      self.counter = counter
      self.dice = dice
      self.products = products
      self.cart = cart
      self.profile = profile
      self.bmi = bmi
      self.search = search
      self.parent = parent
      self.inventory = inventory
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    /// A tab was chosen.
    case tabSelected(AppTab)
    case counter(Counter.Action)
    case dice(Dice.Action)
    case products(ProductList.Action)
    case cart(Cart.Action)
    case profile(Profile.Action)
    case bmi(BMI.Action)
    case search(GIFSearch.Action)
    case parent(Parent.Action)
    case inventory(Inventory.Action)
    /// Sends the recovery action of each feature that waits on an effect
    /// (``Reducer/recoveryActions(for:)``); with none waiting, it changes
    /// nothing and returns no effect. storedaemon reduces those actions
    /// itself after a crash; journals written before it did hold this action
    /// instead, and it stays so that they read, and for debugging.
    case recovered

    var counter: Counter.Action? { if case .counter(let action) = self { action } else { nil } }
    var dice: Dice.Action? { if case .dice(let action) = self { action } else { nil } }
    var products: ProductList.Action? { if case .products(let action) = self { action } else { nil } }
    var cart: Cart.Action? { if case .cart(let action) = self { action } else { nil } }
    var profile: Profile.Action? { if case .profile(let action) = self { action } else { nil } }
    var bmi: BMI.Action? { if case .bmi(let action) = self { action } else { nil } }
    var search: GIFSearch.Action? { if case .search(let action) = self { action } else { nil } }
    var parent: Parent.Action? { if case .parent(let action) = self { action } else { nil } }
    var inventory: Inventory.Action? { if case .inventory(let action) = self { action } else { nil } }
  }

  public init() {}

  public var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: CasePath(Action.counter, \.counter)) { Counter() }
    Scope(state: \.dice, action: CasePath(Action.dice, \.dice)) { Dice() }
    Scope(state: \.products, action: CasePath(Action.products, \.products)) { ProductList() }
      .sharing(
        key: State.productInRow(of:), source: { state, id in state.cart.items[id: id]?.quantity ?? 0 },
        store: { state, id, quantity in
          guard let product = state.products.rows[id: id]?.product else { return }
          state.cart.setQuantity(quantity, of: product)
        },
        copy: { id in
          SharedCopy(
            get: { $0.products.rows[id: id]?.addToCart.$count },
            set: { $0.products.rows[id: id]?.addToCart.$count = $1 })
        })
    Scope(state: \.cart, action: CasePath(Action.cart, \.cart)) { Cart() }
      .sharing(reading: \.products.rows, with: \.cart.$catalog, for: { $0.cart != nil })
    Scope(state: \.profile, action: CasePath(Action.profile, \.profile)) { Profile() }
    Scope(state: \.bmi, action: CasePath(Action.bmi, \.bmi)) { BMI() }
    Scope(state: \.search, action: CasePath(Action.search, \.search)) { GIFSearch() }
    Scope(state: \.parent, action: CasePath(Action.parent, \.parent)) { Parent() }
    Scope(state: \.inventory, action: CasePath(Action.inventory, \.inventory)) { Inventory() }
    Reduce { state, action in
      switch action {
      case .tabSelected(let tab):
        state.selectedTab = tab
        switch tab {
        case .products where state.products.status == .idle || state.products.status == .bundled:
          return .send(.products(.fetchProducts))
        case .profile where state.profile.status == .idle:
          return .send(.profile(.fetchProfile))
        case .bmi where state.bmi.selectedTab == .history:
          return .send(.bmi(.history(.onAppear)))
        default:
          return .none
        }

      case .recovered:
        return .merge(AppFeature().recoveryActions(for: state).map { .send($0) })

      case .counter, .dice, .products, .cart, .profile, .bmi, .search, .parent, .inventory:
        return .none
      }
    }
  }
}

extension AppFeature.State {
  enum CodingKeys: String, CodingKey {
    case selectedTab, counter, dice, products, cart, profile, bmi, search, parent, inventory
  }

  /// Decodes the state; the features added after the first five (`parent`
  /// and `inventory`) may be missing, as in a state saved before they
  /// existed, and then start as new.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      selectedTab: try container.decode(AppTab.self, forKey: .selectedTab),
      counter: try container.decode(Counter.State.self, forKey: .counter),
      dice: try container.decode(Dice.State.self, forKey: .dice),
      products: try container.decode(ProductList.State.self, forKey: .products),
      cart: try container.decode(Cart.State.self, forKey: .cart),
      profile: try container.decode(Profile.State.self, forKey: .profile),
      bmi: try container.decode(BMI.State.self, forKey: .bmi),
      search: try container.decode(GIFSearch.State.self, forKey: .search),
      parent: try container.decodeIfPresent(Parent.State.self, forKey: .parent) ?? Parent.State(),
      inventory: try container.decodeIfPresent(Inventory.State.self, forKey: .inventory) ?? Inventory.State())
  }
}

extension AppFeature.State {
  /// The product whose row an action taps, if it is one: whose counter is
  /// the cart's quantity of it.
  static func productInRow(of action: AppFeature.Action) -> Product.ID? {
    if case .products(.rows(.element(let id, _))) = action { id } else { nil }
  }
}
