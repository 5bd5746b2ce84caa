import ComposableCore

/// An executor that records what the store asked of it, for tests that drive a
/// `Store` directly.
final class RecordingExecutor: EffectExecutor {
  private(set) var started: [(id: EffectID, request: EffectRequest)] = []
  private(set) var cancelled: [EffectID] = []

  func start(_ request: EffectRequest, id: EffectID) { started.append((id, request)) }
  func cancel(_ id: EffectID) { cancelled.append(id) }
}
