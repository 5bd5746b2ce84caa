/// An action a reducer could not apply: what it addresses is absent (an
/// optional child that is `nil`, a destination that is not presented, an
/// element with no such id) or it does not fit (a binding whose value has the
/// wrong type).
///
/// TCA reports such an action as a runtime issue and goes on, and so do
/// reducers here by default (``reportDroppedAction(_:action:location:)``). A
/// ``Store`` asked to refuse them (``Store/sendRefusingDropped(_:origin:)``)
/// instead puts the state back and throws this, so that whoever sent the
/// action hears why, and no version is spent on it.
public struct DroppedAction: Error, Sendable, CustomStringConvertible {
  /// What is missing or wrong, e.g. "rows has no element with id 99".
  public let reason: String
  /// The reducer that dropped the action.
  public let location: SourceLocation?

  public init(reason: String, location: SourceLocation?) {
    self.reason = reason
    self.location = location
  }

  public var description: String { reason }

  /// A key path as a reason names it: `\State.destination` is `destination`.
  static func name(of keyPath: AnyKeyPath) -> String {
    let text = String(describing: keyPath)
    guard let dot = text.firstIndex(of: ".") else { return text }
    return String(text[text.index(after: dot)...])
  }
}

/// Records the first action a reducer drops while a store reduces an action
/// it refuses dropped ones for; while disarmed, a dropped action is reported
/// as usual instead.
final class DroppedActionRecorder: @unchecked Sendable {
  // Safe: a recorder is made for one reduction, or is a store's own for a
  // run of them (``Store/reducingMany(_:)``), and is bound to the task local
  // only around it, on the store's own thread; nothing else reaches it.
  private(set) var first: DroppedAction?
  private(set) var isArmed: Bool

  init(isArmed: Bool = true) {
    self.isArmed = isArmed
  }

  func record(_ dropped: DroppedAction) {
    if first == nil { first = dropped }
  }

  /// Starts recording, with nothing recorded yet.
  func arm() {
    first = nil
    isArmed = true
  }

  /// Stops recording; returns what was recorded.
  func disarm() -> DroppedAction? {
    isArmed = false
    defer { first = nil }
    return first
  }

  /// The recorder of the reduction in progress, if its store refuses
  /// dropped actions.
  @TaskLocal static var current: DroppedActionRecorder?
}

/// Reports that a reducer dropped `action` for `reason`: to the store
/// reducing it, if that store refuses dropped actions, else as a runtime
/// issue (``reportIssue(_:location:)``).
public func reportDroppedAction(_ reason: String, action: some Any, location: SourceLocation?) {
  if let recorder = DroppedActionRecorder.current, recorder.isArmed {
    recorder.record(DroppedAction(reason: reason, location: location))
  } else {
    reportIssue("\(reason); the action was dropped: \(action)", location: location)
  }
}

/// Runs `body`, which reduces actions, with the first action its reducers
/// drop kept and returned instead of reported: for replaying recorded
/// actions, where a dropped one is part of the outcome, not a fault.
public func collectingDroppedAction(_ body: () -> Void) -> DroppedAction? {
  let recorder = DroppedActionRecorder()
  DroppedActionRecorder.$current.withValue(recorder) { body() }
  return recorder.first
}
