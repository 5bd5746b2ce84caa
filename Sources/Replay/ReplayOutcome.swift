import JSON

/// A version this build's reducers do not reproduce.
public struct ReplayDivergence<State> {
  public let version: UInt64
  /// The action as recorded.
  public let action: JSONValue
  /// The patch the journal holds: from the recorded state before to the
  /// recorded state after, in the schema it was recorded in.
  public let recordedPatch: JSONValue
  /// The patch this build's reducer made from the same state before (empty
  /// when the action did not decode: ``problem`` says so); `nil` for a
  /// recorded migration, which is not reduced.
  public let replayedPatch: JSONValue?
  /// What else went wrong, if anything: the action does not decode as this
  /// build's `Action`, the reducer drew a date, UUID or random number the
  /// record does not hold, the recorded patch is in an older schema.
  public let problem: String?
  /// The recorded state after the version, as this build's `State`; `nil`
  /// if it does not decode as one.
  public let recordedState: State?
  /// The state this build's reducer gave.
  public let replayedState: State
}

extension ReplayDivergence: Sendable where State: Sendable {}

/// What replaying a history came to (``JournalReplay/verify(_:keeping:)``).
public struct ReplayReport<State> {
  /// The first version replayed and the last.
  public let versions: ClosedRange<UInt64>?
  /// How many versions diverged.
  public let divergenceCount: Int
  /// The first divergences, in order (as many as were asked for).
  public let divergences: [ReplayDivergence<State>]

  /// Whether every version was reproduced.
  public var reproduced: Bool { divergenceCount == 0 }
}

extension ReplayReport: Sendable where State: Sendable {}

/// A change to recorded history, to see what the state would be without it
/// (``JournalReplay/whatIf(_:at:_:)``).
public enum ReplayEdit: Sendable, Hashable {
  /// Version `version`'s action is left out.
  case remove(version: UInt64)
  /// Version `version`'s action is replaced by `action`, this build's JSON
  /// of an action.
  case replace(version: UInt64, action: JSONValue)

  /// The version edited.
  public var version: UInt64 {
    switch self {
    case .remove(let version), .replace(let version, _): version
    }
  }
}

/// The state at a version as recorded and as it would be with an edit.
public struct WhatIfOutcome: Sendable, Hashable {
  /// The version both states are at.
  public let version: UInt64
  /// The recorded state, in this build's schema.
  public let recorded: JSONValue
  /// The state with the edit.
  public let edited: JSONValue
  /// The patch from `recorded` to `edited`.
  public let patch: JSONValue
  /// What the replay met on the way: actions after the edit that the
  /// reducers dropped or could not read.
  public let notes: [String]
}
