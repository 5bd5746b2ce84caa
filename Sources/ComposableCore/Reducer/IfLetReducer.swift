extension Reducer {
  /// Runs `child` on optional state while it is present.
  ///
  /// The child runs before this reducer. A child action that arrives while the
  /// state is `nil` is reported and dropped. When this reducer sets the state to
  /// `nil`, every effect the child started is cancelled.
  public func ifLet<ChildState, ChildAction: Sendable, Child: Reducer<ChildState, ChildAction>>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: String = #fileID, line: Int = #line
  ) -> IfLetReducer<Self, Child> {
    IfLetReducer(
      parent: self, child: child(), toChildState: toChildState,
      extract: toChildAction.extract, embed: toChildAction.embed, dismiss: nil, identity: nil,
      location: SourceLocation(fileID: fileID, line: line))
  }

  /// Runs `child` on optional state while it is present, where a change of
  /// the child's id (an enum of features switching case, another item
  /// edited) is a new child: the effects the old one started are cancelled.
  public func ifLet<ChildState: Identifiable, ChildAction: Sendable, Child: Reducer<ChildState, ChildAction>>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: String = #fileID, line: Int = #line
  ) -> IfLetReducer<Self, Child> {
    IfLetReducer(
      parent: self, child: child(), toChildState: toChildState,
      extract: toChildAction.extract, embed: toChildAction.embed, dismiss: nil, identity: { AnyHashable($0.id) },
      location: SourceLocation(fileID: fileID, line: line))
  }

  /// Runs `child` on a presented destination while it is presented.
  ///
  /// Like TCA's `@Presents`: the parent presents by setting the state,
  /// ``PresentationAction/dismiss`` (sent by anyone) sets it back to `nil`, and
  /// dismissal cancels every effect the destination started. A destination's
  /// action, or `dismiss`, while nothing is presented is reported and
  /// dropped (``reportDroppedAction(_:action:location:)``).
  public func ifLet<ChildState, ChildAction: Sendable, Child: Reducer<ChildState, ChildAction>>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toPresentationAction: CasePath<Action, PresentationAction<ChildAction>>,
    @ReducerBuilder<ChildState, ChildAction> destination child: () -> Child,
    fileID: String = #fileID, line: Int = #line
  ) -> IfLetReducer<Self, Child> {
    presenting(
      toChildState, action: toPresentationAction, child: child(), identity: nil,
      location: SourceLocation(fileID: fileID, line: line))
  }

  /// Runs `child` on a presented destination while it is presented, where a
  /// change of the destination's id is a new presentation: presenting
  /// another case of an enum of destinations (`Destination.State`, whose id
  /// is its case) cancels the effects the one it replaces started, as
  /// dismissing it would.
  public func ifLet<ChildState: Identifiable, ChildAction: Sendable, Child: Reducer<ChildState, ChildAction>>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toPresentationAction: CasePath<Action, PresentationAction<ChildAction>>,
    @ReducerBuilder<ChildState, ChildAction> destination child: () -> Child,
    fileID: String = #fileID, line: Int = #line
  ) -> IfLetReducer<Self, Child> {
    presenting(
      toChildState, action: toPresentationAction, child: child(), identity: { AnyHashable($0.id) },
      location: SourceLocation(fileID: fileID, line: line))
  }

  private func presenting<ChildState, ChildAction: Sendable, Child: Reducer<ChildState, ChildAction>>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toPresentationAction: CasePath<Action, PresentationAction<ChildAction>>,
    child: Child, identity: ((ChildState) -> AnyHashable)?, location: SourceLocation
  ) -> IfLetReducer<Self, Child> {
    let extract = toPresentationAction.extract
    let embed = toPresentationAction.embed
    return IfLetReducer(
      parent: self, child: child, toChildState: toChildState,
      extract: { action in
        if case .presented(let childAction) = extract(action) { return childAction }
        return nil
      },
      embed: { embed(.presented($0)) },
      dismiss: { action in
        if case .dismiss = extract(action) { return true }
        return false
      },
      identity: identity, location: location)
  }
}

/// The reducer built by ``Reducer/ifLet(_:action:then:fileID:line:)``.
public struct IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  let toChildState: WritableKeyPath<Parent.State, Child.State?>
  let extract: @Sendable (Parent.Action) -> Child.Action?
  let embed: @Sendable (Child.Action) -> Parent.Action
  let dismiss: ((Parent.Action) -> Bool)?
  /// The child's identity, for a child whose state is `Identifiable`: a
  /// new id is a new child.
  let identity: ((Child.State) -> AnyHashable)?
  let location: SourceLocation

  var component: ScopeComponent { .named(String(describing: toChildState)) }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let identityBefore = identity.flatMap { identity in state[keyPath: toChildState].map(identity) }
    let wasPresent = state[keyPath: toChildState] != nil
    var childEffect = Effect<Parent.Action>.none
    if let childAction = extract(action) {
      if wasPresent {
        // invariant: wasPresent, just above, says the child state is there
        childEffect = child.reduce(into: &state[keyPath: toChildState]!, action: childAction)
          .scoped(component)
          .map(embed)
      } else {
        let name = DroppedAction.name(of: toChildState)
        reportDroppedAction(
          dismiss == nil ? "\(name) is nil" : "nothing is presented at \(name)", action: action, location: location)
      }
    } else if !wasPresent, let dismiss, dismiss(action) {
      // There is nothing to dismiss: TCA reports this too.
      let name = DroppedAction.name(of: toChildState)
      reportDroppedAction("nothing is presented at \(name)", action: action, location: location)
    }
    let parentEffect = parent.reduce(into: &state, action: action)
    if let dismiss, dismiss(action) {
      state[keyPath: toChildState] = nil
    }
    var effect = childEffect.merge(with: parentEffect)
    if wasPresent {
      // Gone, or replaced by another child: what the old one started stops.
      let isReplaced: Bool
      if let identityBefore, let identity, let child = state[keyPath: toChildState] {
        isReplaced = identity(child) != identityBefore
      } else {
        isReplaced = state[keyPath: toChildState] == nil
      }
      if isReplaced { effect = effect.merge(with: .cancelScope(component)) }
    }
    return effect
  }

  /// The child's, while its state is present, then the parent's.
  public func recoveryActions(for state: Parent.State) -> [Parent.Action] {
    let child = state[keyPath: toChildState].map { self.child.recoveryActions(for: $0).map(embed) } ?? []
    return child + parent.recoveryActions(for: state)
  }
}
