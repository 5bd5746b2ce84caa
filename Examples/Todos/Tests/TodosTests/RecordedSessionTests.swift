import ComposableCore
import ComposableTesting
import Foundation
import Testing
import Todos

/// A session todosd recorded (Tests/Recordings/session.jsonl, made by
/// scripts/record-session.sh) replays exactly through today's reducers:
/// every version's change as recorded, each new row with the id it drew.
/// A change to a reducer that changes what it does with this session fails
/// here, with the state's −/+ diff at the first version that differs.
@Suite struct RecordedSessionTests {
  static let session = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Recordings/session.jsonl").path

  @Test func theRecordedSessionReplays() {
    assertReplays(logFile: Self.session, reducer: Todos(), initialState: Todos.emptyList)
  }

  /// The test would catch a changed rule: new rows at the bottom instead of
  /// on top.
  @Test func aChangedRuleWouldFail() {
    struct RowsAtTheBottom: Reducer {
      var body: some ReducerOf<Todos> {
        Todos()
        Reduce { state, action in
          guard case .addTodoButtonTapped = action else { return .none }
          state.todos.append(state.todos.remove(at: 0))
          return .none
        }
      }
      typealias State = Todos.State
      typealias Action = Todos.Action
    }
    withKnownIssue {
      assertReplays(logFile: Self.session, reducer: RowsAtTheBottom(), initialState: Todos.emptyList)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined(separator: "\n")
      return text.contains(#"Version 2, "addTodoButtonTapped", does not replay as recorded."#)
        && text.contains("(− recorded, + replayed)")
    }
  }
}
