extension AppFeature {
  /// The recovery action of every feature in `state` that waits on an effect
  /// (its `isAwaitingEffect`), in the order of the tabs: what
  /// ``Action/recovered`` sends. Empty when nothing waits, and then
  /// ``Action/recovered`` changes nothing and returns no effect.
  ///
  /// Each feature decides for itself what is safe: a fetch, a search, a
  /// storage list or put of the same document, or a die's timer starts again;
  /// an order whose answer was lost fails, since sending it again could place
  /// it twice.
  public static func recoveryActions(for state: State) -> [Action] {
    var actions: [Action] = []
    if state.counter.isAwaitingEffect { actions.append(.counter(.recovered)) }
    if state.dice.isAwaitingEffect { actions.append(.dice(.internal(.recovered))) }
    if state.products.isAwaitingEffect { actions.append(.products(.recovered)) }
    if state.cart.isAwaitingEffect { actions.append(.cart(.recovered)) }
    if state.profile.isAwaitingEffect { actions.append(.profile(.recovered)) }
    if state.bmi.isAwaitingEffect { actions.append(.bmi(.recovered)) }
    if state.search.isAwaitingEffect { actions.append(.search(.recovered)) }
    return actions
  }
}
