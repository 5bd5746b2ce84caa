import ComposableCore

/// The root state's parts, so that the daemon compares them one by one and
/// encodes only those an action changed (``StateParts``). They are the
/// stored properties, under the keys `encode(to:)` gives them; the daemon's
/// tests check the document against the full encoding.
extension AppFeature.State: StateParts {
  public mutating func takeParts(
    from current: Self, _ part: (_ key: String, _ differed: Bool, _ value: () -> (any Encodable)?) throws -> Void
  ) rethrows {
    try Self.take("selectedTab", &selectedTab, from: current.selectedTab, part)
    try Self.take("counter", &counter, from: current.counter, part)
    try Self.take("dice", &dice, from: current.dice, part)
    try Self.take("products", &products, from: current.products, part)
    try Self.take("cart", &cart, from: current.cart, part)
    try Self.take("profile", &profile, from: current.profile, part)
    try Self.take("bmi", &bmi, from: current.bmi, part)
    try Self.take("search", &search, from: current.search, part)
    try Self.take("parent", &parent, from: current.parent, part)
    try Self.take("inventory", &inventory, from: current.inventory, part)
  }
}
