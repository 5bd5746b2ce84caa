/// The calculator's two tabs (the seed's `AppReducer.State.Tab`).
public enum BMITab: String, Hashable, Sendable, Codable, CaseIterable {
  case input = "Input"
  case history = "History"

  /// The tab's label in the tab bar.
  public var title: String {
    switch self {
    case .input: "Calculate"
    case .history: "History"
    }
  }

  /// The tab's SF Symbol, for clients that draw one.
  public var systemImage: String {
    switch self {
    case .input: "person.crop.circle.fill"
    case .history: "chart.line.uptrend.xyaxis"
    }
  }
}
