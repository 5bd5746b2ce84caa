import ComposableCore
import FoundationEssentials

/// The calculator form (the seed's `BMIInputReducer`): height and weight typed
/// as text, validated as they change, the BMI and its category computed from
/// them, and a save to the history through the storage worker.
///
/// The fields are set by bindings (`tcactl send bmi.input.binding height 180`).
/// After every binding the messages and the result are recomputed and kept in
/// state, so any client shows them without re-implementing the rules.
///
/// The record being saved is kept in ``State/recordBeingSaved`` until storage
/// answers, so that a save in flight when storedaemon stopped can be restarted
/// by ``Action/recovered`` with the very same document: a put of the same
/// document under the same key is idempotent, and the history never gets the
/// entry twice.
public struct BMIInput: Reducer {
  public struct State: Equatable, Sendable, Codable {
    /// Height in centimetres, as typed.
    public var height: String
    /// Weight in kilograms, as typed.
    public var weight: String
    /// Why ``height`` is not usable (including when it is empty), or `nil`.
    public var heightError: String?
    /// Why ``weight`` is not usable (including when it is empty), or `nil`.
    public var weightError: String?
    /// The BMI of the entered values, when both are valid.
    public var result: BMIResult?
    /// The save in progress, its confirmation, or its error.
    public var saveStatus: BMISaveStatus
    /// The record being stored while ``saveStatus`` is ``BMISaveStatus/saving``,
    /// `nil` otherwise: what ``Action/recovered`` stores again. (`nil` while
    /// saving only in a state kept by a storedaemon older than this field.)
    public var recordBeingSaved: BMIRecord?
    /// Seed 002's "BMI Saved!" alert, while it is shown.
    public var alert: AlertState<Alert>?

    /// A form holding `height` and `weight`, with messages and result computed
    /// from them.
    public init(
      height: String = "", weight: String = "", saveStatus: BMISaveStatus = .idle, recordBeingSaved: BMIRecord? = nil,
      alert: AlertState<Alert>? = nil
    ) {
      self.height = height
      self.weight = weight
      self.saveStatus = saveStatus
      self.recordBeingSaved = recordBeingSaved
      self.alert = alert
      self.validate()
    }

    /// Whether the form waits on an effect: a save is in flight.
    /// ``Action/recovered`` restarts (or fails) what this covers.
    public var isAwaitingEffect: Bool { saveStatus == .saving }

    /// Whether "Save to History" can be tapped: both values are valid and no
    /// save is in flight.
    public var isSaveButtonEnabled: Bool { result != nil && saveStatus != .saving }

    /// Recomputes the messages and the result from the fields.
    mutating func validate() {
      let height = BMIField.height.validate(self.height)
      let weight = BMIField.weight.validate(self.weight)
      heightError = BMIField.height.message(validating: self.height)
      weightError = BMIField.weight.message(validating: self.weight)
      if case .success(let centimetres) = height, case .success(let kilograms) = weight {
        result = BMIResult(height: centimetres, weight: kilograms)
      } else {
        result = nil
      }
    }
  }

  public enum Action: Equatable, Sendable, Codable, BindableAction {
    /// Sets a form field (`height` or `weight`).
    case binding(BindingAction<State>)
    /// "Save to History": stores the current measurement if it is valid.
    case saveButtonTapped
    /// The storage worker stored `record`.
    case saved(BMIRecord)
    /// The storage worker could not store the measurement, or its answer was
    /// lost (``EffectFailure/Kind/interrupted``: it may have been stored).
    case saveFailed(EffectFailure)
    /// Dismisses the saved confirmation or the save error ("OK").
    case dismissAlert
    /// The "BMI Saved!" alert's "OK", or its dismissal.
    case alert(PresentationAction<Alert>)
    /// storedaemon recovered this state after stopping without finishing its
    /// effects; every effect that was in flight is gone. A save that was in
    /// flight stores ``State/recordBeingSaved`` again, the same document
    /// under the same key; otherwise nothing happens.
    case recovered

    /// The binding, if this action is one (for ``BindingReducer``).
    public var binding: BindingAction<State>? {
      if case .binding(let action) = self { action } else { nil }
    }

    var alert: PresentationAction<Alert>? { if case .alert(let action) = self { action } else { nil } }
  }

  /// What the "BMI Saved!" alert's button sends.
  public enum Alert: Equatable, Hashable, Sendable, Codable {
    /// "OK": the confirmation is read.
    case okButtonTapped
  }

  /// Seed 002's alert after a save: "BMI Saved!", "Your BMI has been saved
  /// to history.", and "OK".
  public static let savedAlert = AlertState<Alert>(
    title: "BMI Saved!", message: "Your BMI has been saved to history.",
    buttons: [ButtonState(role: .cancel, action: .okButtonTapped, label: "OK")])

  enum CancelID { case save }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date

  public init() {}

  public var body: some Reducer<State, Action> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        state.validate()
        return .none

      case .saveButtonTapped:
        guard state.saveStatus != .saving,
          case .success(let height) = BMIField.height.validate(state.height),
          case .success(let weight) = BMIField.weight.validate(state.weight)
        else { return .none }
        state.alert = nil
        let record = BMIRecord(id: uuid(), height: height, weight: weight, date: date.now)
        return save(record, &state)

      case .saved(let record):
        state.saveStatus = .saved(record)
        state.recordBeingSaved = nil
        state.alert = Self.savedAlert
        return .none

      case .saveFailed(let failure):
        state.saveStatus = .failed(Self.saveFailedMessage(for: failure))
        state.recordBeingSaved = nil
        state.alert = nil
        return .none

      case .dismissAlert, .alert(.presented(.okButtonTapped)), .alert(.dismiss):
        // A save under way stays under way: only what it saved before is dismissed.
        if state.saveStatus != .saving { state.saveStatus = .idle }
        state.alert = nil
        return .none

      case .recovered:
        guard state.isAwaitingEffect else { return .none }
        guard let record = state.recordBeingSaved else {
          // Kept by a storedaemon that did not record what it was saving: a
          // new record could duplicate one that was stored, so say so instead.
          state.saveStatus = .failed(Self.unknownSaveMessage)
          return .none
        }
        return save(record, &state)
      }
    }
    .ifLet(\.alert, action: CasePath(Action.alert, \.alert))
  }

  /// Why a save that storedaemon cannot restart failed.
  static let unknownSaveMessage =
    "Could not save your BMI: storedaemon restarted during the save, which \(unknownOutcome)"

  /// What every message about a save whose answer was lost ends with: saving
  /// again would store a second entry if the first was stored.
  static let unknownOutcome = "may or may not have been stored. Check the history before saving again."

  /// Why a save failed. A put handed to the storage worker, which then ended
  /// (``EffectFailure/Kind/interrupted``), may have been stored, and so may
  /// one that timed out (the worker finishes a put it has begun): the message
  /// says so rather than invite a save that could add the entry twice. The
  /// failure's own message, for whoever looks into it, stays in the action
  /// and the log.
  static func saveFailedMessage(for failure: EffectFailure) -> String {
    switch failure.kind {
    case .interrupted:
      "Could not save your BMI: the save's answer was lost, so it \(unknownOutcome)"
    case .timeout:
      "Could not save your BMI: the save did not finish in time, so it \(unknownOutcome)"
    case .connection, .httpStatus, .decoding, .storage, .workerUnavailable, .invalidRequest:
      "Could not save your BMI. " + failure.sentence(about: BMIHistoryStorage.serviceName)
    }
  }

  /// Stores `record` as its document under its key, marking the form as saving;
  /// answered by ``Action/saved(_:)`` or ``Action/saveFailed(_:)``. It replaces
  /// the save in flight.
  private func save(_ record: BMIRecord, _ state: inout State) -> Effect<Action> {
    guard let document = try? BMIHistoryStorage.encode(record) else {
      state.saveStatus = .failed("Could not save your BMI: the entry could not be encoded.")
      state.recordBeingSaved = nil
      return .none
    }
    state.saveStatus = .saving
    state.recordBeingSaved = record
    let request = StorageRequest.put(
      namespace: BMIHistoryStorage.namespace, key: BMIHistoryStorage.key(for: record), value: document)
    return .storage(request) { result in
      switch result {
      case .success(.stored): .saved(record)
      case .success(let reply): .saveFailed(EffectFailure(.storage, "unexpected reply \(reply) to a put"))
      case .failure(let failure): .saveFailed(failure)
      }
    }
    .cancellable(id: CancelID.save, cancelInFlight: true)
  }
}

extension BMIInput.State: BindableState {
  public static var bindableFields: [BindableField<Self>] {
    [
      BindableField("height", \.height, "Sets the height in centimetres, as typed"),
      BindableField("weight", \.weight, "Sets the weight in kilograms, as typed"),
    ]
  }
}

extension BMIInput: RecoverableFeature {
  /// ``Action/recovered`` while an effect is awaited (``State/isAwaitingEffect``).
  public func recoveryAction(for state: State) -> Action? {
    state.isAwaitingEffect ? .recovered : nil
  }
}

extension BMIInput.State {
  private enum CodingKeys: String, CodingKey {
    case height, weight, heightError, weightError, result, saveStatus, recordBeingSaved, alert
  }

  /// Decodes the form; a form saved before the alert was kept in state
  /// shows the alert its saved status stood for (a saved status is shown
  /// with its alert until both are dismissed together).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let saveStatus = try container.decode(BMISaveStatus.self, forKey: .saveStatus)
    var alert = try container.decodeIfPresent(AlertState<BMIInput.Alert>.self, forKey: .alert)
    if alert == nil, case .saved = saveStatus { alert = BMIInput.savedAlert }
    self.init(
      height: try container.decode(String.self, forKey: .height),
      weight: try container.decode(String.self, forKey: .weight), saveStatus: saveStatus,
      recordBeingSaved: try container.decodeIfPresent(BMIRecord.self, forKey: .recordBeingSaved), alert: alert)
  }
}
