import ComposableCore
import ComposableTesting
import Testing

@testable import Features

@Suite struct DiceHistoryTests {
  @Test func labelsNumberTheNewestRollHighest() {
    let state = DiceHistory.State(rolls: [5, 2, 6])
    #expect(state.rolls.indices.map(state.label(at:)) == ["Roll 3: 5", "Roll 2: 2", "Roll 1: 6"])
  }

  @Test func closeButtonChangesNothingByItself() {
    let store = TestStore(initialState: DiceHistory.State(rolls: [1])) { DiceHistory() }
    store.send(.closeButtonTapped)
  }
}
