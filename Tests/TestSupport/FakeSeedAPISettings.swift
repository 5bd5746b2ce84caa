/// What a ``FakeSeedAPI`` answers that a test can change while it runs: the
/// injected faults and the data. Kept under the fake's lock.
struct FakeSeedAPISettings: Sendable {
  /// An injected fault and how many more requests it applies to (`nil`: until cleared).
  struct ActiveFault: Sendable {
    var fault: FakeSeedAPI.Fault
    var remaining: Int?
  }

  var faults: [FakeSeedAPI.Route: ActiveFault] = [:]
  var productsJSON = FakeStoreData.defaultProductsJSON
  var gifResultCount = 3
  var nextCartID = FakeStoreData.firstCartID

  /// The fault for the next request on `route`, counting it against the fault's budget.
  mutating func takeFault(for route: FakeSeedAPI.Route) -> FakeSeedAPI.Fault? {
    guard var active = faults[route] else { return nil }
    if let remaining = active.remaining {
      active.remaining = remaining - 1
      faults[route] = remaining > 1 ? active : nil
    }
    return active.fault
  }
}
