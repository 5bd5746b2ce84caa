import ComposableCore

/// The root state's parts, so that the daemon compares them one by one and
/// encodes only those an action changed (``StateParts``). They are the
/// stored properties, under the keys `encode(to:)` gives them, which the
/// contract test checks; the daemon's tests check the document against the
/// full encoding.
extension AppFeature.State: StateParts {
  public mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("selectedTab", &selectedTab, from: current.selectedTab, visitor)
    try Self.take("counter", &counter, from: current.counter, visitor)
    try Self.take("dice", &dice, from: current.dice, visitor)
    try Self.take("products", &products, from: current.products, visitor)
    try Self.take("cart", &cart, from: current.cart, visitor)
    try Self.take("profile", &profile, from: current.profile, visitor)
    try Self.take("bmi", &bmi, from: current.bmi, visitor)
    try Self.take("search", &search, from: current.search, visitor)
    try Self.take("parent", &parent, from: current.parent, visitor)
    try Self.take("inventory", &inventory, from: current.inventory, visitor)
  }
}
