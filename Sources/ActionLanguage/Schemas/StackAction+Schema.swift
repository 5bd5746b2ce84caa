import ComposableCore

extension StackElementID: DescribedValue {
  /// A stack screen's id, a whole number: `path[3]`, `path.popFrom 3`.
  public static var valueSchema: ValueSchema { .int }
}

extension StackAction: DescribedValue where Action: DescribedAction {
  /// A screen's action, addressed by the screen's id in a path
  /// (`inventory.path[1].detail.editButtonTapped`), or popping screens
  /// (`inventory.path.popFrom 1`).
  public static var valueSchema: ValueSchema { .stack(Self.self) }
}

/// What a path names on a stack besides its screens: `path.popFrom <id>`,
/// whose JSON is ``StackAction/popFrom(id:)``'s. A push is not among them:
/// the features push screens themselves (`detailButtonTapped`), handing out
/// the ids, and a raw JSON `push` must name the next id.
enum StackOperation: DescribedAction {
  case popFrom(id: StackElementID)

  static let describedCases: [DescribedCase<Self>] = [
    .init(.popFrom(id: 0), "Pops the screen with this id and every screen above it (back)")
  ]
}
