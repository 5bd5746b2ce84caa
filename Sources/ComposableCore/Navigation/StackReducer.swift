extension Reducer {
  /// Runs `destination` on the screens of a navigation stack: TCA's
  /// `forEach(\.path, action: \.path)`.
  ///
  /// - ``StackAction/element(id:action:)``: the screen's reducer runs, then
  ///   this one. An action for a screen that is not on the stack is reported
  ///   and dropped (a client that sent it hears why; the state is unchanged).
  /// - ``StackAction/popFrom(id:)``: this reducer runs, then the screen and
  ///   everything above it is popped.
  /// - ``StackAction/push(id:state:)``: this reducer runs, then the state is
  ///   pushed, if `id` is the stack's next id; otherwise it is dropped.
  ///
  /// However a screen leaves the stack, popped by an action or removed by a
  /// reducer, every effect it started is cancelled; its id is never handed
  /// out again, so its effects' late answers reach nothing. A reducer that
  /// replaces the whole stack with a new one (`state.path = StackState()`,
  /// whose ids start at 0) has the new screens numbered on from the old
  /// stack's next id.
  public func forEach<
    ElementState: Sendable, ElementAction: Sendable, Destination: Reducer<ElementState, ElementAction>
  >(
    _ toStack: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: CasePath<Action, StackAction<ElementState, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> destination: () -> Destination,
    fileID: String = #fileID, line: Int = #line
  ) -> StackReducer<Self, Destination> {
    StackReducer(
      parent: self, destination: destination(), toStack: toStack, toStackAction: toStackAction,
      location: SourceLocation(fileID: fileID, line: line))
  }
}

/// The reducer built by ``Reducer/forEach(_:action:destination:fileID:line:)``
/// for a ``StackState``.
public struct StackReducer<Parent: Reducer, Destination: Reducer>: Reducer where Destination.State: Sendable {
  let parent: Parent
  let destination: Destination
  let toStack: WritableKeyPath<Parent.State, StackState<Destination.State>>
  let toStackAction: CasePath<Parent.Action, StackAction<Destination.State, Destination.Action>>
  let location: SourceLocation

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    // The scope's name is made only for an effect (see `Effect.scoped`).
    var name: String { String(describing: toStack) }
    var stackName: String { DroppedAction.name(of: toStack) }
    let stackAction = toStackAction.extract(action)
    var elementEffect = Effect<Parent.Action>.none
    if case .element(let id, let elementAction) = stackAction {
      if let position = state[keyPath: toStack].components.index(id: id) {
        let embed = toStackAction.embed
        elementEffect = destination.reduce(into: &state[keyPath: toStack][position: position], action: elementAction)
          .scoped(.element(name, AnyHashableSendable(id)))
          .map { embed(.element(id: id, action: $0)) }
      } else {
        reportDroppedAction("\(stackName) has no screen with id \(id)", action: action, location: location)
      }
    }
    let before = state[keyPath: toStack]
    let parentEffect = parent.reduce(into: &state, action: action)
    if state[keyPath: toStack].nextID < before.nextID {
      state[keyPath: toStack].renumber(from: before.nextID)
    }
    switch stackAction {
    case .popFrom(let id)?:
      if !state[keyPath: toStack].pop(from: id) {
        reportDroppedAction("\(stackName) has no screen with id \(id)", action: action, location: location)
      }
    case .push(let id, let element)?:
      let next = state[keyPath: toStack].nextID
      if !state[keyPath: toStack].push(element, id: id) {
        reportDroppedAction(
          "\(stackName) pushes the next screen as id \(next), not \(id)", action: action, location: location)
      }
    case .element?, nil:
      break
    }
    var effect = elementEffect.merge(with: parentEffect)
    let after = state[keyPath: toStack].components
    if before.components.structure.generation != after.structure.generation {
      for id in before.ids where !after.contains(id: id) {
        effect = effect.merge(with: .cancelScope(.element(name, AnyHashableSendable(id))))
      }
    }
    return effect
  }

  /// Each screen's, bottom first, then the parent's.
  public func recoveryActions(for state: Parent.State) -> [Parent.Action] {
    var actions: [Parent.Action] = []
    for component in state[keyPath: toStack].components {
      for action in destination.recoveryActions(for: component.state) {
        actions.append(toStackAction.embed(.element(id: component.id, action: action)))
      }
    }
    return actions + parent.recoveryActions(for: state)
  }
}
