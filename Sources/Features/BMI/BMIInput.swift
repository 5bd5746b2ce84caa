import ComposableCore
import FoundationEssentials

/// The calculator form (the seed's `BMIInputReducer`): height and weight typed
/// as text, validated as they change, the BMI and its category computed from
/// them, and a save to the history through the storage worker.
///
/// The fields are set by bindings (`tcactl send bmi.input.binding height 180`).
/// After every binding the messages and the result are recomputed and kept in
/// state, so any client shows them without re-implementing the rules.
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

    /// A form holding `height` and `weight`, with messages and result computed
    /// from them.
    public init(height: String = "", weight: String = "", saveStatus: BMISaveStatus = .idle) {
      self.height = height
      self.weight = weight
      self.saveStatus = saveStatus
      self.validate()
    }

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
    /// The storage worker could not store the measurement.
    case saveFailed(EffectFailure)
    /// Dismisses the saved confirmation or the save error ("OK").
    case dismissAlert

    /// The binding, if this action is one (for ``BindingReducer``).
    public var binding: BindingAction<State>? {
      if case .binding(let action) = self { action } else { nil }
    }
  }

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
        let record = BMIRecord(id: uuid(), height: height, weight: weight, date: date.now)
        guard let document = try? BMIHistoryStorage.encode(record) else {
          state.saveStatus = .failed("Could not save your BMI: the entry could not be encoded.")
          return .none
        }
        state.saveStatus = .saving
        let request = StorageRequest.put(
          namespace: BMIHistoryStorage.namespace, key: BMIHistoryStorage.key(for: record), value: document)
        return .storage(request) { result in
          switch result {
          case .success(.stored): .saved(record)
          case .success(let reply): .saveFailed(EffectFailure(.storage, "unexpected reply \(reply) to a put"))
          case .failure(let failure): .saveFailed(failure)
          }
        }
        .cancellable(id: CancelID.save)

      case .saved(let record):
        state.saveStatus = .saved(record)
        return .none

      case .saveFailed(let failure):
        state.saveStatus = .failed("Could not save your BMI: \(failure.message)")
        return .none

      case .dismissAlert:
        state.saveStatus = .idle
        return .none
      }
    }
  }
}

extension BMIInput.State: BindableState {
  public static var bindableFields: [BindableField<Self>] {
    [BindableField("height", \.height), BindableField("weight", \.weight)]
  }
}
