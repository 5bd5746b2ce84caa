import ComposableCore

extension GIFSearch {
  /// A sentence for a person about why a search failed.
  ///
  /// Built from the failure's kind rather than from its message: the message of
  /// an HTTP failure names the request's URL, which carries the API key.
  static func message(for failure: EffectFailure) -> String {
    switch failure.kind {
    case .httpStatus:
      "The GIF service answered with status \(failure.status.map(String.init) ?? "unknown")."
    case .decoding:
      "The GIF service sent an answer that could not be read."
    case .connection:
      "Could not connect to the GIF service."
    case .timeout:
      "The GIF service did not answer in time."
    case .workerUnavailable, .interrupted:
      "Searching is unavailable right now. Try again shortly."
    case .invalidRequest, .storage:
      "The search could not be sent."
    }
  }
}
