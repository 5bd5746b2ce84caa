import ComposableCore

/// The full roll history (seed 000's `DiceHistoryFeature`), presented by
/// ``Dice`` as its destination: a snapshot of every roll, newest first.
///
/// The seed's history screen has no actions; this one has a close button so the
/// screen can ask to be dismissed, and so that it has an action a client can
/// send at all (an uninhabited action type cannot be sent or tested).
public struct DiceHistory: Reducer {
  /// The rolls shown, newest first, copied when the history was opened.
  public struct State: Equatable, Sendable, Codable {
    /// Every roll at the time the history was opened, newest first.
    public var rolls: [Int]

    public init(rolls: [Int] = []) {
      self.rolls = rolls
    }

    /// The label the seed's list shows for the roll at `index`, where the
    /// newest roll carries the highest number: "Roll 3: 5" for the newest of
    /// three rolls.
    public func label(at index: Int) -> String {
      "Roll \(rolls.count - index): \(rolls[index])"
    }
  }

  /// What can happen on the history screen.
  public enum Action: Equatable, Sendable, Codable {
    /// The person is done reading; the presenting feature dismisses the screen.
    case closeButtonTapped
  }

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { _, action in
      switch action {
      case .closeButtonTapped:
        // Dismissal belongs to the presenter, which owns the optional state.
        return .none
      }
    }
  }
}
