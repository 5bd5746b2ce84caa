import ComposableCore
import ComposableTesting
import FoundationEssentials
import Testing

@testable import Features

/// The validation rules of the form fields, through the form itself: each text
/// is bound to the field and the message in state is checked.
@Suite struct BMIFieldTests {
  static let heightCases: [(text: String, message: String?, value: Double?)] = [
    ("", "Enter your height in cm.", nil),
    ("   ", "Enter your height in cm.", nil),
    ("abc", "Height must be a number, like 170 or 170.5.", nil),
    ("170,5", "Height must be a number, like 170 or 170.5.", nil),
    ("1.7.0", "Height must be a number, like 170 or 170.5.", nil),
    ("1e2", "Height must be a number, like 170 or 170.5.", nil),
    ("inf", "Height must be a number, like 170 or 170.5.", nil),
    ("nan", "Height must be a number, like 170 or 170.5.", nil),
    ("0x10", "Height must be a number, like 170 or 170.5.", nil),
    (".", "Height must be a number, like 170 or 170.5.", nil),
    ("-", "Height must be a number, like 170 or 170.5.", nil),
    ("170 cm", "Height must be a number, like 170 or 170.5.", nil),
    ("0", "Height must be greater than 0 cm.", nil),
    ("0.0", "Height must be greater than 0 cm.", nil),
    ("-0", "Height must be greater than 0 cm.", nil),
    ("-170", "Height must be greater than 0 cm.", nil),
    ("1.75", "Height must be between 50 and 280 cm.", nil),
    ("49.9", "Height must be between 50 and 280 cm.", nil),
    ("280.1", "Height must be between 50 and 280 cm.", nil),
    (String(repeating: "9", count: 400), "Height must be between 50 and 280 cm.", nil),
    ("50", nil, 50),
    ("280", nil, 280),
    ("170.5", nil, 170.5),
    (" 170 ", nil, 170),
    ("+170", nil, 170),
    ("170.", nil, 170),
  ]

  @Test(arguments: heightCases)
  func heightMessage(text: String, message: String?, value: Double?) {
    let store = TestStore(initialState: BMIInput.State(height: "placeholder", weight: "70")) { BMIInput() }
    #expect(store.state.heightError == "Height must be a number, like 170 or 170.5.")
    store.send(.binding(.set(\.height, text))) {
      $0.height = text
      $0.heightError = message
      $0.result = value.map { BMIResult(height: $0, weight: 70) }
    }
  }

  static let weightCases: [(text: String, message: String?, value: Double?)] = [
    ("", "Enter your weight in kg.", nil),
    ("seventy", "Weight must be a number, like 70 or 70.5.", nil),
    ("70kg", "Weight must be a number, like 70 or 70.5.", nil),
    ("0", "Weight must be greater than 0 kg.", nil),
    ("-70", "Weight must be greater than 0 kg.", nil),
    ("1.9", "Weight must be between 2 and 700 kg.", nil),
    ("700.1", "Weight must be between 2 and 700 kg.", nil),
    ("70000", "Weight must be between 2 and 700 kg.", nil),
    ("2", nil, 2),
    ("700", nil, 700),
    ("70.5", nil, 70.5),
  ]

  @Test(arguments: weightCases)
  func weightMessage(text: String, message: String?, value: Double?) {
    let store = TestStore(initialState: BMIInput.State(height: "170", weight: "placeholder")) { BMIInput() }
    store.send(.binding(.set(\.weight, text))) {
      $0.weight = text
      $0.weightError = message
      $0.result = value.map { BMIResult(height: 170, weight: $0) }
    }
  }

  @Test(arguments: [
    ("170", 170.0), ("170.5", 170.5), (" 170 ", 170), ("+170", 170), ("170.", 170), ("050", 50),
  ])
  func validHeightParses(text: String, value: Double) {
    #expect(BMIField.height.validate(text) == .success(value))
  }

  @Test(arguments: [
    ("", BMIFieldError.empty), ("x", .notANumber), ("-1", .notPositive), ("0", .notPositive), ("2000", .outOfRange),
  ])
  func invalidWeightIsClassified(text: String, error: BMIFieldError) {
    #expect(BMIField.weight.validate(text) == .failure(error))
  }
}
