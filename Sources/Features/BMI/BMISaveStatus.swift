/// Where saving the current measurement stands: the confirmation the seed shows
/// as the "BMI Saved!" alert, or the error when storage failed.
public enum BMISaveStatus: Hashable, Sendable, Codable {
  /// Nothing saved yet, or the last confirmation was dismissed.
  case idle
  /// The storage request is in flight; the save button is disabled.
  case saving
  /// The entry was stored: "BMI Saved! Your BMI has been saved to history."
  case saved(BMIRecord)
  /// Storing failed; the message says why.
  case failed(String)
}
