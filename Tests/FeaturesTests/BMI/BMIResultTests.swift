import ComposableCore
import ComposableTesting
import FoundationEssentials
import Testing

@testable import Features

/// The BMI value, its one-decimal display and its category, at the seed's
/// boundaries (18.5 normal, 25 overweight, 30 obese). At 200 cm the BMI is
/// weight / 4, so every boundary is hit exactly.
@Suite struct BMIResultTests {
  @Test(arguments: [
    (200.0, 73.99, BMICategory.underweight, "18.5"),  // 18.4975: shown rounded, classed by the exact value
    (200, 74, .normal, "18.5"),
    (200, 99.99, .normal, "25.0"),
    (200, 100, .overweight, "25.0"),
    (200, 119.99, .overweight, "30.0"),
    (200, 120, .obese, "30.0"),
    (170, 70, .normal, "24.2"),  // the seed's example, 24.221…
    (150, 30, .underweight, "13.3"),
    (160, 140, .obese, "54.7"),
  ])
  func valueCategoryAndDisplay(height: Double, weight: Double, category: BMICategory, display: String) {
    let result = BMIResult(height: height, weight: weight)
    #expect(result.value == weight / ((height / 100) * (height / 100)))
    #expect(result.category == category)
    #expect(result.formattedValue == display)
  }

  @Test(arguments: [
    (18.5.nextDown, BMICategory.underweight), (18.5, .normal),
    (25.0.nextDown, .normal), (25, .overweight),
    (30.0.nextDown, .overweight), (30, .obese),
  ])
  func categoryBoundaries(bmi: Double, category: BMICategory) {
    #expect(BMICategory(bmi: bmi) == category)
  }

  @Test func rawValuesAreTheSeedLabels() {
    #expect(BMICategory.allCases.map(\.rawValue) == ["Underweight", "Normal", "Overweight", "Obese"])
  }

  @Test func boundaryThroughTheForm() {
    let store = TestStore(initialState: BMIInput.State(height: "200")) { BMIInput() }
    store.send(.binding(.set(\.weight, "74"))) {
      $0.weight = "74"
      $0.weightError = nil
      $0.result = BMIResult(height: 200, weight: 74)
    }
    #expect(store.state.result?.category == .normal)
    #expect(store.state.result?.formattedValue == "18.5")
    store.send(.binding(.set(\.weight, "120"))) {
      $0.weight = "120"
      $0.result = BMIResult(height: 200, weight: 120)
    }
    #expect(store.state.result?.category == .obese)
  }
}
