extension EffectFailure {
  /// A sentence for a person about why a request to `service` failed, e.g.
  /// `"Could not connect to the GIF service."`, for a feature to show in its
  /// state.
  ///
  /// Built from the kind and the status alone, never from ``message``: the
  /// message is for logs and developers (it quotes libcurl and `URLError`
  /// codes), and an HTTP failure's names the request's URL, which may carry an
  /// API key. A feature with more to say about one case (a status that means
  /// a missing key) says it first and falls back on this.
  ///
  /// The sentences suit a request that is safe to repeat (a GET):
  /// ``Kind/interrupted`` says the answer was lost and to try again. A
  /// feature whose request is not safe to repeat (placing an order) must say
  /// instead that its outcome is unknown.
  ///
  /// - Parameter service: the service as a sentence names it after a verb,
  ///   lowercase, e.g. `"the GIF service"`; it is capitalised where it starts
  ///   the sentence.
  public func sentence(about service: String) -> String {
    let subject = service.prefix(1).uppercased() + service.dropFirst()
    return switch kind {
    case .httpStatus: "\(subject) answered with status \(status.map(String.init) ?? "unknown")."
    case .decoding: "\(subject) sent an answer that could not be read."
    case .connection: "Could not connect to \(service)."
    case .timeout: "\(subject) did not answer in time."
    case .workerUnavailable: "\(subject) cannot be reached right now. Try again shortly."
    case .interrupted: "The answer from \(service) was lost. Try again."
    case .invalidRequest, .storage: "The request to \(service) could not be sent."
    }
  }
}
