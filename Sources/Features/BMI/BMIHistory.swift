import ComposableCore
import FoundationEssentials

/// The saved measurements (the seed's `BMIHistoryReducer`), newest first:
/// loaded from the storage worker's "bmi-history" namespace, and deleted one by
/// one.
///
/// A stored document that does not decode is skipped and named in
/// ``State/unreadableMessage``; the other entries still show.
///
/// If storedaemon restarts while the history is loading, ``Action/recovered``
/// lists it again: a list is safe to repeat. A delete in flight is not marked
/// in state (the entry has already left the list), so it is not restarted: if
/// it did not reach storage, the next load shows the entry again.
public struct BMIHistory: Reducer {
  public struct State: Equatable, Sendable, Codable {
    /// The saved measurements, newest first.
    public var records: IdentifiedArrayOf<BMIRecord>
    /// Whether a load is in flight.
    public var isLoading: Bool
    /// Why the last load or delete failed, for a person to read.
    public var errorMessage: String?
    /// Which stored documents the last load skipped because they did not
    /// decode, for a person to read.
    public var unreadableMessage: String?

    public init(
      records: IdentifiedArrayOf<BMIRecord> = [], isLoading: Bool = false, errorMessage: String? = nil,
      unreadableMessage: String? = nil
    ) {
      self.records = records
      self.isLoading = isLoading
      self.errorMessage = errorMessage
      self.unreadableMessage = unreadableMessage
    }

    /// Whether the history waits on an effect: it is loading.
    /// ``Action/recovered`` restarts what this covers.
    public var isAwaitingEffect: Bool { isLoading }
  }

  public enum Action: Equatable, Sendable, Codable {
    /// The history is shown: (re)load it from storage.
    case onAppear
    /// The storage worker listed the history: the records that decoded, and
    /// "key: reason" for each document that did not.
    case loaded(records: [BMIRecord], unreadable: [String])
    /// The storage worker could not list the history.
    case loadFailed(EffectFailure)
    /// Deletes the entry with `id`, from the list at once and from storage.
    case delete(id: UUID)
    /// Storage could not delete `record`, which goes back into the list.
    case deleteFailed(BMIRecord, EffectFailure)
    /// Dismisses the error and unreadable-entries messages.
    case dismissMessages
    /// storedaemon recovered this state after stopping without finishing its
    /// effects; every effect that was in flight is gone. A history that was
    /// loading is listed again; otherwise nothing happens.
    case recovered
  }

  enum CancelID { case load }

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        state.isLoading = true
        state.errorMessage = nil
        return load()

      case .loaded(let records, let unreadable):
        state.isLoading = false
        // A record listed twice (a worker's mistake, or a journal's) is
        // shown once: `append` keeps the first of an id.
        var listed = IdentifiedArrayOf<BMIRecord>()
        for record in records.sorted(by: { $0.isListed(before: $1) }) { listed.append(record) }
        state.records = listed
        state.unreadableMessage = Self.unreadableMessage(unreadable)
        return .none

      case .loadFailed(let failure):
        state.isLoading = false
        state.errorMessage = "Could not load the history. " + failure.sentence(about: BMIHistoryStorage.serviceName)
        return .none

      case .delete(let id):
        guard let record = state.records.remove(id: id) else { return .none }
        state.errorMessage = nil
        let request = StorageRequest.delete(
          namespace: BMIHistoryStorage.namespace, key: BMIHistoryStorage.key(for: record))
        return .storage(request) { result in
          switch result {
          case .success(.deleted): nil
          case .success(let reply):
            .deleteFailed(record, EffectFailure(.storage, "unexpected reply \(reply) to a delete"))
          case .failure(let failure): .deleteFailed(record, failure)
          }
        }

      case .deleteFailed(let record, let failure):
        let position = state.records.firstIndex { record.isListed(before: $0) } ?? state.records.count
        state.records.insert(record, at: position)
        state.errorMessage = "Could not delete the entry. " + failure.sentence(about: BMIHistoryStorage.serviceName)
        return .none

      case .dismissMessages:
        state.errorMessage = nil
        state.unreadableMessage = nil
        return .none

      case .recovered:
        guard state.isAwaitingEffect else { return .none }
        return load()
      }
    }
  }

  /// Lists the history's namespace, answered by ``Action/loaded(records:unreadable:)``
  /// or ``Action/loadFailed(_:)``; it replaces the load in flight.
  private func load() -> Effect<Action> {
    .storage(.list(namespace: BMIHistoryStorage.namespace)) { result in
      switch result {
      case .success(.documents(let documents)):
        let (records, unreadable) = BMIHistoryStorage.decode(documents)
        return .loaded(records: records, unreadable: unreadable)
      case .success(let reply):
        return .loadFailed(EffectFailure(.storage, "unexpected reply \(reply) to a list"))
      case .failure(let failure):
        return .loadFailed(failure)
      }
    }
    .cancellable(id: CancelID.load, cancelInFlight: true)
  }

  /// "1 saved entry could not be read and was skipped: key: reason." (or the
  /// plural), or `nil` when every document decoded.
  static func unreadableMessage(_ unreadable: [String]) -> String? {
    switch unreadable.count {
    case 0: nil
    case 1: "1 saved entry could not be read and was skipped: \(unreadable[0])."
    default:
      "\(unreadable.count) saved entries could not be read and were skipped: \(unreadable.joined(separator: "; "))."
    }
  }
}

extension BMIHistory: RecoverableFeature {
  /// ``Action/recovered`` while an effect is awaited (``State/isAwaitingEffect``).
  public func recoveryAction(for state: State) -> Action? {
    state.isAwaitingEffect ? .recovered : nil
  }
}
