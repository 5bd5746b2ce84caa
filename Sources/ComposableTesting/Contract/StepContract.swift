import ActionLanguage
import JSON

/// What a ``TestStore`` checks of every action it reduces and the state that
/// follows, beyond the story the test tells: that the action's case is
/// described, so a client can send it and the log can show it, and that the
/// state survives the daemon's JSON exactly (``StateRoundTrip``).
///
/// Each test of a feature thus checks the contract on the actions and states
/// it produces; an action or state type that does not take part (not a
/// ``DescribedAction``, not `Codable`) is not checked.
enum StepContract {
  /// What breaks the contract in reducing `action` to `state`.
  static func problems<Action, State>(action: Action, state: State) -> [String] {
    var problems: [String] = []
    if let described = action as? any DescribedAction, let problem = undescribed(described) {
      problems.append(problem)
    }
    if let codable = state as? any Codable & Equatable, let problem = StateRoundTrip.problem(with: codable) {
      problems.append("The state after \(ValueDump.oneLine(action)) breaks the contract: \(problem)")
    }
    return problems
  }

  private static func undescribed<Action: DescribedAction>(_ action: Action) -> String? {
    guard let json = try? CanonicalJSON.value(of: action), let problem = Action.actionSchema.undescribedCase(in: json)
    else {
      return nil
    }
    return "\(ValueDump.oneLine(action)) has a case its schema does not describe: \(problem). "
      + "Give a value of each case of an action enum in its describedCases."
  }
}
