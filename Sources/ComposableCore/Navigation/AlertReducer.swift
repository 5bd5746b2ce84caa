extension Reducer {
  /// Presents an alert or a confirmation dialog held in `toButtons`: TCA's
  /// `.ifLet(\.$alert, action: \.alert)`.
  ///
  /// A button's action (`.presented(action)`) reaches this reducer, which
  /// handles it, and then the alert closes, unless this reducer presented
  /// another. An action no button of the presented alert sends (or any
  /// action while none is presented, `.dismiss` too) is reported and
  /// dropped: a client cannot press a button that is not on screen.
  /// `.dismiss` closes it.
  public func ifLet<Buttons: ButtonsState>(
    _ toButtons: WritableKeyPath<State, Buttons?>,
    action toPresentationAction: CasePath<Action, PresentationAction<Buttons.ButtonAction>>,
    fileID: String = #fileID, line: Int = #line
  ) -> AlertReducer<Self, Buttons> where Buttons: Equatable, Buttons.ButtonAction: Equatable & Sendable {
    AlertReducer(
      parent: self, toButtons: toButtons, toPresentationAction: toPresentationAction,
      location: SourceLocation(fileID: fileID, line: line))
  }
}

/// The reducer built by ``Reducer/ifLet(_:action:fileID:line:)`` for an
/// alert or a confirmation dialog.
public struct AlertReducer<Parent: Reducer, Buttons: ButtonsState>: Reducer
where Buttons: Equatable, Buttons.ButtonAction: Equatable & Sendable {
  let parent: Parent
  let toButtons: WritableKeyPath<Parent.State, Buttons?>
  let toPresentationAction: CasePath<Parent.Action, PresentationAction<Buttons.ButtonAction>>
  let location: SourceLocation

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    guard let presentation = toPresentationAction.extract(action) else {
      return parent.reduce(into: &state, action: action)
    }
    let shown = state[keyPath: toButtons]
    let name = DroppedAction.name(of: toButtons)
    guard let shown else {
      // No button to press, nothing to dismiss.
      reportDroppedAction("nothing is presented at \(name)", action: action, location: location)
      return .none
    }
    if case .presented(let buttonAction) = presentation {
      guard shown.buttons.contains(where: { $0.action == buttonAction }) else {
        reportDroppedAction(
          "the \(name) shown has no button that sends \(CaseName.of(buttonAction)); its buttons: "
            + shown.buttons.map(\.label).joined(separator: ", "), action: action, location: location)
        return .none
      }
    }
    let effect = parent.reduce(into: &state, action: action)
    // The button's action is handled: the alert closes, unless another was presented.
    if state[keyPath: toButtons] == shown { state[keyPath: toButtons] = nil }
    return effect
  }

  public func recoveryActions(for state: Parent.State) -> [Parent.Action] {
    parent.recoveryActions(for: state)
  }
}
