import ComposableCore
import FoundationEssentials

/// What the BMI calculator shows, published beside its state
/// (``PublishesView``).
extension BMIInput.State: PublishesView {
  /// The form as its screen shows it.
  public struct View: Encodable, Equatable, Sendable {
    /// Whether "Save to History" can be tapped: both fields hold a valid
    /// value and no save is under way.
    public let isSaveButtonEnabled: Bool
    /// What the form says of the last save, or nil.
    public let saveText: String?
  }

  public var view: View {
    let saveText: String? =
      switch saveStatus {
      case .idle: nil
      case .saving: "Saving…"
      case .saved: "Saved to the history."
      case .failed(let message): message
      }
    return View(isSaveButtonEnabled: isSaveButtonEnabled, saveText: saveText)
  }
}

/// The records' own JSON is also the document storage keeps, so what their
/// rows show is the history's view, not theirs.
extension BMIHistory.State: PublishesView {
  /// A saved measurement as its row shows it.
  public struct Row: Encodable, Equatable, Sendable {
    /// The record's id, as `bmi.history.delete <id>` names it.
    public let id: UUID
    /// When it was saved, for a person: "14 Nov 2023, 22:13 UTC".
    public let dateText: String
    /// The index to one decimal, and its category: "24.2", "Normal".
    public let bmiText: String
    public let category: String
  }

  /// The history as its screen shows it.
  public struct View: Encodable, Equatable, Sendable {
    /// The rows, in the order of ``BMIHistory/State/records``.
    public let rows: [Row]
    /// What the screen says of the history's loading, or nil.
    public let statusText: String?
  }

  public var view: View {
    let rows = records.map { record in
      let result = record.result
      return Row(
        id: record.id, dateText: Self.personDate(record.date), bmiText: result.formattedValue,
        category: result.category.rawValue)
    }
    let statusText: String? =
      if isLoading { "Loading…" } else if records.isEmpty && errorMessage == nil { "No measurements saved yet." } else {
        nil
      }
    return View(rows: rows, statusText: statusText)
  }

  /// `date` as "14 Nov 2023, 22:13 UTC": the same on every machine, whatever
  /// its locale and time zone, as the daemon publishes it to every client.
  static func personDate(_ date: Date) -> String {
    let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    let month = months[max(0, min(11, (parts.month ?? 1) - 1))]
    func twoDigits(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
    return "\(parts.day ?? 1) \(month) \(parts.year ?? 1970), \(twoDigits(parts.hour)):\(twoDigits(parts.minute)) UTC"
  }
}

/// The Gregorian calendar in UTC, whatever the machine's time zone.
private let utcCalendar: Calendar = {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = .gmt
  return calendar
}()
