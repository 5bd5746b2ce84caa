import ComposableCore

/// The dice roller (seed 000's `DiceFeature`): roll a six-sided die, which
/// lands half a second later; keep every roll, newest first; undo the last roll
/// or reset them all; and open the full history as a presented destination.
///
/// The value of a roll is drawn from `\.randomNumbers` when the roll starts and
/// carried by the action that completes it, ``Action/InternalAction/rollCompleted(_:)``:
/// reducing the completion is then a pure function of state and action, so a
/// log of actions replays to the same state, and the value that will land is
/// visible in the action a test or a log shows. The timer itself is a request
/// to the timer worker; only the completion action stays in the daemon. If
/// the timer cannot fire (its worker died), ``Action/InternalAction/rollFailed(_:)``
/// ends the roll with ``State/errorMessage`` saying so, and the die can be rolled again.
///
/// If storedaemon restarts while a roll is under way, the timer and the value
/// it carried are gone; ``Action/InternalAction/recovered`` restarts the roll's
/// timer with a value drawn anew. Nobody saw the lost value (it lived only in
/// the effect), and a roll has no effect outside the die, so rolling again is
/// safe; the die is not turned a second time.
public struct Dice: Reducer {
  /// The die, its history and what is presented over it.
  public struct State: Equatable, Sendable, Codable {
    /// The value shown on the die: the newest roll, or `nil` before any roll
    /// (and after undoing or resetting them all).
    public var currentRoll: Int?
    /// Whether a roll is under way; the roll button does nothing meanwhile.
    public var isRolling: Bool
    /// Every roll, newest first, without limit.
    public var rollHistory: [Int]
    /// The die's rotation in degrees: each roll turns it a full turn further.
    public var rollAnimationAngle: Double
    /// What is presented over the die: the full history, while it is open.
    public var destination: Destination.State?
    /// Why the last roll could not finish, for a person to read; cleared by the next roll.
    public var errorMessage: String?

    public init(
      currentRoll: Int? = nil, isRolling: Bool = false, rollHistory: [Int] = [], rollAnimationAngle: Double = 0,
      destination: Destination.State? = nil, errorMessage: String? = nil
    ) {
      self.currentRoll = currentRoll
      self.isRolling = isRolling
      self.rollHistory = rollHistory
      self.rollAnimationAngle = rollAnimationAngle
      self.destination = destination
      self.errorMessage = errorMessage
    }

    /// The last five rolls, newest first: the inline preview under the die.
    public var lastFiveRolls: [Int] { Array(rollHistory.prefix(Dice.recentRollCount)) }

    /// Whether there is a roll to undo.
    public var canUndo: Bool { !rollHistory.isEmpty }

    /// Whether the die waits on an effect: a roll is under way.
    /// ``Action/InternalAction/recovered`` restarts what this covers.
    public var isAwaitingEffect: Bool { isRolling }
  }

  /// What can happen, grouped as in the seed: what the person does (`view`),
  /// what the feature's own effects report (`internal`), and what happens in
  /// the presented history (`destination`).
  ///
  /// From a command line: `tcactl send dice.view.rollButtonTapped`.
  public enum Action: Equatable, Sendable, Codable {
    /// Something the person did.
    case view(ViewAction)
    /// Something the feature's own effects report; not meant for people.
    case `internal`(InternalAction)
    /// An action of what is presented (the full history), or its dismissal.
    case destination(PresentationAction<Destination.Action>)

    /// What the person can do on the dice screen.
    public enum ViewAction: Equatable, Sendable, Codable {
      /// Starts a roll, unless one is already under way.
      case rollButtonTapped
      /// Removes the newest roll; the die shows the one before it.
      case undoLastRoll
      /// Forgets every roll; the die shows no value.
      case resetHistory
      /// Presents the full history, a snapshot of the rolls so far.
      case viewFullHistoryTapped
    }

    /// What the feature's own effects report.
    public enum InternalAction: Equatable, Sendable, Codable {
      /// The roll under way landed on this value.
      case rollCompleted(Int)
      /// The roll under way could not finish: its timer failed.
      case rollFailed(EffectFailure)
      /// A roll started: turn the die.
      case startAnimation
      /// storedaemon recovered this state after stopping without finishing its
      /// effects; every effect that was in flight is gone. A roll under way
      /// starts its timer again, landing on a newly drawn value; otherwise
      /// nothing happens.
      case recovered
    }

    var destination: PresentationAction<Destination.Action>? {
      if case .destination(let action) = self { action } else { nil }
    }
  }

  /// How long a roll takes before it lands, unless the configuration says
  /// otherwise (``AppConfiguration/diceRollMilliseconds``).
  public static let rollDuration: Duration = .milliseconds(500)
  /// The faces of the die.
  public static let faces: ClosedRange<Int> = 1...6
  /// How many rolls the inline preview shows.
  public static let recentRollCount = 5

  private enum CancelID { case roll }

  @Dependency(\.randomNumbers) var randomNumbers
  @Dependency(\.configuration) var configuration

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .view(let viewAction):
        return reduce(into: &state, viewAction)
      case .internal(let internalAction):
        return reduce(into: &state, internalAction)
      case .destination(.presented(.history(.closeButtonTapped))):
        state.destination = nil
        return .none
      case .destination(.dismiss):
        return .none
      }
    }
    .ifLet(\.destination, action: CasePath(Action.destination, \.destination)) {
      Destination()
    }
  }

  private func reduce(into state: inout State, _ action: Action.ViewAction) -> Effect<Action> {
    switch action {
    case .rollButtonTapped:
      // The seed's view disables the button while rolling; a command line has
      // no disabled button, so the reducer enforces it. One roll at a time
      // also keeps `isRolling` true until the roll in flight lands.
      guard !state.isRolling else { return .none }
      state.isRolling = true
      state.errorMessage = nil
      return .merge(.send(.internal(.startAnimation)), landRoll())

    case .undoLastRoll:
      guard !state.rollHistory.isEmpty else { return .none }
      state.rollHistory.removeFirst()
      state.currentRoll = state.rollHistory.first
      return .none

    case .resetHistory:
      state.rollHistory = []
      state.currentRoll = nil
      return .none

    case .viewFullHistoryTapped:
      state.destination = .history(DiceHistory.State(rolls: state.rollHistory))
      return .none
    }
  }

  private func reduce(into state: inout State, _ action: Action.InternalAction) -> Effect<Action> {
    switch action {
    case .rollCompleted(let value):
      state.isRolling = false
      state.currentRoll = value
      state.rollHistory.insert(value, at: 0)
      return .none

    case .rollFailed(let failure):
      state.isRolling = false
      state.errorMessage = "The die could not be rolled: \(failure.message)"
      return .none

    case .startAnimation:
      state.rollAnimationAngle += 360
      return .none

    case .recovered:
      guard state.isAwaitingEffect else { return .none }
      return landRoll()
    }
  }

  /// Draws the roll's value now and lands it after the configured roll
  /// duration (``AppConfiguration/diceRoll``), through
  /// the timer worker: ``Action/InternalAction/rollCompleted(_:)``, or
  /// ``Action/InternalAction/rollFailed(_:)`` if the timer cannot fire. It
  /// replaces a roll timer in flight, so a roll never lands twice.
  private func landRoll() -> Effect<Action> {
    let value = randomNumbers.int(in: Self.faces)
    return .timer(after: configuration.diceRoll, send: .internal(.rollCompleted(value))) { .internal(.rollFailed($0)) }
      .cancellable(id: CancelID.roll, cancelInFlight: true)
  }
}

extension Dice: RecoverableFeature {
  /// ``Action/InternalAction/recovered`` while an effect is awaited (``State/isAwaitingEffect``).
  public func recoveryAction(for state: State) -> Action? {
    state.isAwaitingEffect ? .internal(.recovered) : nil
  }
}

extension Dice {
  /// What the dice present over the die (seed 000's `Destination`): an enum
  /// of features, of which the full history is the one.
  public struct Destination: Reducer {
    public enum State: Equatable, Sendable, Codable, Identifiable {
      case history(DiceHistory.State)

      public var id: String {
        switch self {
        case .history: "history"
        }
      }

      var history: DiceHistory.State? { if case .history(let history) = self { history } else { nil } }
    }

    public enum Action: Equatable, Sendable, Codable {
      case history(DiceHistory.Action)

      var history: DiceHistory.Action? { if case .history(let action) = self { action } else { nil } }
    }

    public init() {}

    public var body: some Reducer<State, Action> {
      CaseScope(state: CasePath(State.history, \.history), action: CasePath(Action.history, \.history)) {
        DiceHistory()
      }
    }
  }
}

extension Dice.State: PublishesView {
  /// The dice as its screen shows it: the inline preview of the last rolls,
  /// and whether undo is possible.
  public struct View: Encodable, Equatable, Sendable {
    public let lastFiveRolls: [Int]
    public let canUndo: Bool
  }

  public var view: View { View(lastFiveRolls: lastFiveRolls, canUndo: canUndo) }
}

extension Dice.State {
  /// Decodes the stored members. A history presented by a daemon from
  /// before the destination was an enum (the history's state itself, not
  /// `{"history":…}`) is read as the history.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let destination: Dice.Destination.State?
    do {
      destination = try container.decodeIfPresent(Dice.Destination.State.self, forKey: .destination)
    } catch let error as DecodingError {
      guard let history = try? container.decode(DiceHistory.State.self, forKey: .destination) else { throw error }
      destination = .history(history)
    }
    self.init(
      currentRoll: try container.decodeIfPresent(Int.self, forKey: .currentRoll),
      isRolling: try container.decode(Bool.self, forKey: .isRolling),
      rollHistory: try container.decode([Int].self, forKey: .rollHistory),
      rollAnimationAngle: try container.decode(Double.self, forKey: .rollAnimationAngle),
      destination: destination, errorMessage: try container.decodeIfPresent(String.self, forKey: .errorMessage))
  }

  private enum CodingKeys: String, CodingKey {
    case currentRoll, isRolling, rollHistory, rollAnimationAngle, destination, errorMessage
  }
}
