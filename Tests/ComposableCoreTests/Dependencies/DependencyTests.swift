import ComposableCore
import ComposableTesting
import FoundationEssentials
import Testing

struct MakesIDs: Reducer {
  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date

  var body: some Reducer<[String], String> {
    Reduce { state, action in
      switch action {
      case "id": state.append(uuid().uuidString)
      case "date": state.append("\(date.now.timeIntervalSince1970)")
      default: break
      }
      return .none
    }
  }
}

@Suite struct DependencyTests {
  @Test func liveContextUsesLiveValues() {
    let store = Store(initialState: [], reducer: MakesIDs(), executor: RecordingExecutor())
    store.send("id")
    store.send("id")
    #expect(store.state.count == 2)
    #expect(store.state[0] != store.state[1])
  }

  @Test func testOverridesAreUsed() {
    let store = TestStore(initialState: [], reducer: { MakesIDs() }, withDependencies: { $0.uuid = .incrementing() })
    store.send("id") { $0 = ["00000000-0000-0000-0000-000000000000"] }
    store.send("id") { $0.append("00000000-0000-0000-0000-000000000001") }
  }

  @Test func aDependencyUsedWithoutOverrideFailsNamingIt() {
    let store = TestStore(initialState: [], reducer: { MakesIDs() })
    store.exhaustivity = .off
    withKnownIssue {
      store.send("date")
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("Unimplemented dependency 'date'") }
    }
  }

  /// Every count has its UUID, past 12 hexadecimal digits too.
  @Test func countingUUIDsHoldTheirNumber() {
    #expect(UUID(counting: 10).uuidString == "00000000-0000-0000-0000-00000000000A")
    #expect(UUID(counting: 1 << 48).uuidString == "00000000-0000-0000-0001-000000000000")
    #expect(UUID(counting: .max).uuidString == "00000000-0000-0000-FFFF-FFFFFFFFFFFF")
  }

  @Test func reducerScopedOverrideWins() {
    let fixed = UUID(counting: 7)
    let reducer = MakesIDs().dependency(\.uuid, .constant(fixed))
    let store = Store(initialState: [], reducer: reducer, executor: RecordingExecutor())
    store.send("id")
    #expect(store.state == [fixed.uuidString])
  }

  @Test func withDependenciesOverridesForTheOperation() {
    let value = withDependencies {
      $0.randomNumbers = .sequence([4, 9])
    } operation: {
      @Dependency(\.randomNumbers) var random
      return [random.int(in: 1...6), random.int(in: 1...6), random.int(in: 1...6)]
    }
    #expect(value == [4, 6, 4])
  }
}
