import ComposableCore

/// The root state's parts, so that the daemon compares them one by one and
/// encodes only those an action changed (``StateParts``). They are the
/// stored properties, under the keys `encode(to:)` gives them; the daemon's
/// tests check the document against the full encoding.
extension AppFeature.State: StateParts {
  public func forEachPart(
    since previous: Self, _ part: (_ key: String, _ differs: Bool, _ value: () -> (any Encodable)?) throws -> Void
  ) rethrows {
    try part("selectedTab", selectedTab != previous.selectedTab) { selectedTab }
    try part("counter", counter != previous.counter) { counter }
    try part("dice", dice != previous.dice) { dice }
    try part("products", products != previous.products) { products }
    try part("cart", cart != previous.cart) { cart }
    try part("profile", profile != previous.profile) { profile }
    try part("bmi", bmi != previous.bmi) { bmi }
    try part("search", search != previous.search) { search }
    try part("parent", parent != previous.parent) { parent }
    try part("inventory", inventory != previous.inventory) { inventory }
  }
}
