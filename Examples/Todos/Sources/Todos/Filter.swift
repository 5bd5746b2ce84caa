/// Which rows the list shows: the segmented control above it.
public enum Filter: String, Hashable, Sendable, Codable, CaseIterable {
  /// Every row.
  case all
  /// The rows not done yet.
  case active
  /// The rows done.
  case completed

  /// Whether a row with this completion is shown.
  public func shows(_ todo: Todo.State) -> Bool {
    switch self {
    case .all: true
    case .active: !todo.isComplete
    case .completed: todo.isComplete
    }
  }
}
