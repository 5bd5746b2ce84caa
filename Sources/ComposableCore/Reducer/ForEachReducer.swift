/// The action of one element of a collection: which element, and what happened
/// to it.
public enum IdentifiedAction<ID: Hashable & Sendable, Action: Sendable>: Sendable {
  case element(id: ID, action: Action)
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Codable where ID: Codable, Action: Codable {}

extension Reducer {
  /// Runs `element` on the element of an identified collection that an action
  /// names.
  ///
  /// The element runs before this reducer. An action for an id that is not in
  /// the collection is reported and dropped. When an element is removed, every
  /// effect it started is cancelled; an element's cancel ids never reach another
  /// element's effects.
  public func forEach<
    ElementState: Identifiable, ElementAction: Sendable, Element: Reducer<ElementState, ElementAction>
  >(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ElementState>>,
    action toElementAction: CasePath<Action, IdentifiedAction<ElementState.ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: String = #fileID, line: Int = #line
  ) -> ForEachReducer<Self, Element> where ElementState.ID: Sendable {
    ForEachReducer(
      parent: self, element: element(), toElements: toElements, toElementAction: toElementAction,
      location: SourceLocation(fileID: fileID, line: line))
  }
}

/// The reducer built by ``Reducer/forEach(_:action:element:fileID:line:)``.
public struct ForEachReducer<Parent: Reducer, Element: Reducer>: Reducer
where Element.State: Identifiable, Element.State.ID: Sendable {
  typealias ID = Element.State.ID
  let parent: Parent
  let element: Element
  let toElements: WritableKeyPath<Parent.State, IdentifiedArray<Element.State>>
  let toElementAction: CasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>
  let location: SourceLocation

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    // The scope's name is made only for an effect (see `Effect.scoped`).
    var name: String { String(describing: toElements) }
    var elementEffect = Effect<Parent.Action>.none
    if case .element(let id, let elementAction) = toElementAction.extract(action) {
      if let position = state[keyPath: toElements].index(id: id) {
        let embed = toElementAction.embed
        elementEffect = element.reduce(into: &state[keyPath: toElements][position: position], action: elementAction)
          .scoped(.element(name, AnyHashableSendable(id)))
          .map { embed(.element(id: id, action: $0)) }
      } else {
        reportDroppedAction(
          "\(DroppedAction.name(of: toElements)) has no element with id \(id)", action: action, location: location)
      }
    }
    // Retaining the id index is cheap; it is copied only if the parent changes
    // the collection's structure, which costs as much anyway.
    let before = state[keyPath: toElements].structure
    let parentEffect = parent.reduce(into: &state, action: action)
    let after = state[keyPath: toElements].structure
    var effect = elementEffect.merge(with: parentEffect)
    if before.generation != after.generation {
      for id in before.index.keys where after.index[id] == nil {
        effect = effect.merge(with: .cancelScope(.element(name, AnyHashableSendable(id))))
      }
    }
    return effect
  }

  /// Each element's, in the collection's order, then the parent's.
  public func recoveryActions(for state: Parent.State) -> [Parent.Action] {
    var actions: [Parent.Action] = []
    for elementState in state[keyPath: toElements] {
      let id = elementState.id
      for action in element.recoveryActions(for: elementState) {
        actions.append(toElementAction.embed(.element(id: id, action: action)))
      }
    }
    return actions + parent.recoveryActions(for: state)
  }
}
