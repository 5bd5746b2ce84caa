import ComposableCore

extension GIFSearch {
  /// How the search's messages name Giphy.
  static let serviceName = "the GIF service"

  /// A sentence for a person about why a search failed.
  ///
  /// Built from the failure's kind rather than from its message: the message of
  /// an HTTP failure names the request's URL, which carries the API key. A 401
  /// or 403 is Giphy refusing the key (401 when none was sent, 403 for a wrong
  /// one), which only the person running storedaemon can fix: the message says
  /// how. Everything else is ``EffectFailure/sentence(about:)``.
  ///
  /// - Parameter hasAPIKey: whether storedaemon is set up with a GIF API key.
  static func message(for failure: EffectFailure, hasAPIKey: Bool) -> String {
    guard failure.kind == .httpStatus, let status = failure.status, status == 401 || status == 403 else {
      return failure.sentence(about: serviceName)
    }
    let setting = "--gif-api-key KEY or STOREDAEMON_GIF_API_KEY=KEY, or gif-api-key = KEY in storedaemon.conf"
    return hasAPIKey
      ? "The GIF service refused the API key (status \(status)). Set a valid one with \(setting)."
      : "The GIF service needs an API key (it answered with status \(status)) and none is set. Set one with \(setting)."
  }
}
