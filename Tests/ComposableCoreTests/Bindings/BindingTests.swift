import ComposableCore
import ComposableTesting
import FoundationEssentials
import Testing

struct Form: Reducer {
  struct State: Equatable, Sendable, Codable, BindableState {
    var name = ""
    var age = 0
    var subscribed = false

    static var bindableFields: [BindableField<Self>] {
      [BindableField("name", \.name), BindableField("age", \.age), BindableField("subscribed", \.subscribed)]
    }
  }
  enum Action: Equatable, Sendable, Codable, BindableAction {
    case binding(BindingAction<State>)
    var binding: BindingAction<State>? { if case .binding(let b) = self { b } else { nil } }
  }

  var body: some Reducer<State, Action> {
    BindingReducer()
  }
}

@Suite struct BindingTests {
  @Test func bindingsSetTheirFields() {
    let store = TestStore(initialState: Form.State()) { Form() }
    store.send(.binding(.set(\.name, "Ada"))) { $0.name = "Ada" }
    store.send(.binding(.set(\.age, 36))) { $0.age = 36 }
    store.send(.binding(.set(\.subscribed, true))) { $0.subscribed = true }
  }

  @Test func bindingsTravelByNameAndJSONValue() throws {
    let action = Form.Action.binding(.set(\.age, 36))
    let data = try JSONEncoder().encode(action)
    #expect(try JSONDecoder().decode(Form.Action.self, from: data) == action)
    #expect(BindingAction<Form.State>.set(\.age, 36).field == "age")
    #expect(BindingAction<Form.State>.set(\.age, 36).sets(\.age))
  }

  @Test func unknownFieldIsReportedAndChangesNothing() {
    let store = TestStore(initialState: Form.State()) { Form() }
    withKnownIssue {
      store.send(.binding(BindingAction(field: "height", value: .int(3))))
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("no bindable field 'height'; expected one of: name, age, subscribed")
      }
    }
  }

  @Test func wrongValueTypeIsReportedAndChangesNothing() {
    var state = Form.State()
    #expect(throws: BindingError.self) { try state.apply(BindingAction(field: "age", value: .string("old"))) }
    #expect(state == Form.State())
  }
}
