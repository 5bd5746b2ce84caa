import ActionLanguage
import ComposableCore

extension AppFeature.Action: DescribedAction {
  /// The root of every command-line path: `tabSelected products`,
  /// `cart.addItem 3`, `dice.view.rollButtonTapped`, …
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("tabSelected", "Shows a tab, fetching what it shows", .unlabeled("tab", AppTab.self)),
      ActionCase("counter", "The counter with number facts", .unlabeled("action", Counter.Action.self)),
      ActionCase("dice", "The dice roller", .unlabeled("action", Dice.Action.self)),
      ActionCase("products", "The online store's product list", .unlabeled("action", ProductList.Action.self)),
      ActionCase("cart", "The online store's cart", .unlabeled("action", Cart.Action.self)),
      ActionCase("profile", "The online store's profile", .unlabeled("action", Profile.Action.self)),
      ActionCase("bmi", "The BMI calculator and its history", .unlabeled("action", BMI.Action.self)),
      ActionCase("search", "The GIF search", .unlabeled("action", GIFSearch.Action.self)),
      ActionCase("parent", "A counter with settings presented over it", .unlabeled("action", Parent.Action.self)),
      ActionCase(
        "inventory", "Items, their add and edit forms, and their detail screens",
        .unlabeled("action", Inventory.Action.self)),
      ActionCase(
        "recovered", "Restarts or fails what each feature was waiting on when storedaemon stopped",
        sentBy: .recovery),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .tabSelected: "tabSelected"
    case .counter: "counter"
    case .dice: "dice"
    case .products: "products"
    case .cart: "cart"
    case .profile: "profile"
    case .bmi: "bmi"
    case .search: "search"
    case .parent: "parent"
    case .inventory: "inventory"
    case .recovered: "recovered"
    }
  }
}

/// Written as its raw value: `counter`, `dice`, `products`, …
extension AppTab: DescribedValue {}
