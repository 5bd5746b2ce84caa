/// Runs a child reducer on one case of an enum state, for the child's actions:
/// how a reducer over an enum of features (a destination, a stack's screens)
/// scopes to each case, as TCA's `@Reducer enum` does.
///
/// ```swift
/// struct Destination: Reducer {
///   enum State: Equatable, Sendable, Codable { case addItem(ItemForm.State), editItem(ItemForm.State) }
///   enum Action: Equatable, Sendable, Codable { case addItem(ItemForm.Action), editItem(ItemForm.Action) }
///   var body: some Reducer<State, Action> {
///     CaseScope(state: CasePath(State.addItem, \.addItem), action: CasePath(Action.addItem, \.addItem)) {
///       ItemForm()
///     }
///     CaseScope(state: CasePath(State.editItem, \.editItem), action: CasePath(Action.editItem, \.editItem)) {
///       ItemForm()
///     }
///   }
/// }
/// ```
///
/// A child action that arrives while the state is another case is reported
/// and dropped, as TCA does. The child's effects run in the scope of whatever
/// presents the enum: an `ifLet` over an `Identifiable` enum (whose id is its
/// case) cancels them when the case goes or changes, a stack when the screen
/// leaves it. A screen whose case is changed in place keeps its effects.
public struct CaseScope<ParentState, ParentAction: Sendable, Child: Reducer>: Reducer {
  let toChildState: CasePath<ParentState, Child.State>
  let toChildAction: CasePath<ParentAction, Child.Action>
  let child: Child
  let location: SourceLocation

  public init<ChildState, ChildAction>(
    state toChildState: CasePath<ParentState, ChildState>,
    action toChildAction: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: String = #fileID, line: Int = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child()
    self.location = SourceLocation(fileID: fileID, line: line)
  }

  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(action) else { return .none }
    guard var childState = toChildState.extract(state) else {
      reportDroppedAction(
        "the action is for \(CaseName.of(action)), but the state is \(CaseName.of(state))", action: action,
        location: location)
      return .none
    }
    let effect = child.reduce(into: &childState, action: childAction)
    state = toChildState.embed(childState)
    return effect.map(toChildAction.embed)
  }

  public func recoveryActions(for state: ParentState) -> [ParentAction] {
    guard let childState = toChildState.extract(state) else { return [] }
    return child.recoveryActions(for: childState).map(toChildAction.embed)
  }
}

/// The name of an enum value's case, for messages: `editItem`.
enum CaseName {
  static func of(_ value: Any) -> String {
    if let label = Mirror(reflecting: value).children.first?.label { return label }
    let text = String(describing: value)
    return text.prefix { $0 != "(" }.split(separator: ".").last.map(String.init) ?? text
  }
}
