import FoundationEssentials
import JSON

extension Effect {
  /// Asks a worker to carry out `request`, mapping each reply to an action (or to
  /// none, by returning `nil`).
  public static func request(
    _ request: EffectRequest, then transform: @escaping @Sendable (EffectReply) -> Action?
  ) -> Self {
    Self(.request(request, ReplyMapping(transform)))
  }

  /// Sends `action` once, `delay` from now, through the timer worker.
  ///
  /// A failure (the timer worker died or is down) sends nothing: use
  /// ``timer(after:send:failed:)`` when state waits on the timer.
  public static func timer(after delay: Duration, send action: Action) -> Self {
    .request(.timer(.after(delay))) { reply in
      if case .timerFired = reply { return action }
      return nil
    }
  }

  /// Sends `action` once, `delay` from now, through the timer worker, or
  /// `failed(failure)` if the timer cannot fire (its worker died or is down),
  /// so a feature waiting on the timer (a roll under way, a pending search)
  /// never waits forever.
  public static func timer(
    after delay: Duration, send action: Action, failed: @escaping @Sendable (EffectFailure) -> Action
  ) -> Self {
    .request(.timer(.after(delay))) { reply in
      timerReply(reply, fired: { _ in action }, failed: failed)
    }
  }

  /// Sends `action(tick)` every `interval` until cancelled. A failure sends nothing.
  public static func timer(every interval: Duration, send action: @escaping @Sendable (Int) -> Action) -> Self {
    .request(.timer(.every(interval))) { reply in
      if case .timerFired(let tick) = reply { return action(tick) }
      return nil
    }
  }

  /// Sends `action(tick)` every `interval` until cancelled, or `failed(failure)`
  /// once if the timer stops for a failure (which ends it).
  public static func timer(
    every interval: Duration, send action: @escaping @Sendable (Int) -> Action,
    failed: @escaping @Sendable (EffectFailure) -> Action
  ) -> Self {
    .request(.timer(.every(interval))) { reply in
      timerReply(reply, fired: action, failed: failed)
    }
  }

  /// The action for a timer's reply: `fired(tick)` when it fired, `failed`
  /// for a failure or a reply no timer gives.
  private static func timerReply(
    _ reply: EffectReply, fired: (Int) -> Action, failed: (EffectFailure) -> Action
  ) -> Action {
    switch reply {
    case .timerFired(let tick): fired(tick)
    case .failure(let failure): failed(failure)
    case .http, .storage, .custom: failed(EffectFailure(.invalidRequest, "unexpected reply \(reply) to a timer"))
    }
  }

  /// Performs an HTTP request; a non-2xx status is a failure of kind
  /// ``EffectFailure/Kind/httpStatus``.
  public static func http(
    _ request: HTTPRequest, then transform: @escaping @Sendable (Result<HTTPResponse, EffectFailure>) -> Action?
  ) -> Self {
    .request(.http(request)) { reply in
      switch reply {
      case .http(let response) where response.isSuccess:
        return transform(.success(response))
      case .http(let response):
        return transform(
          .failure(
            EffectFailure(
              .httpStatus, "\(request.method) \(request.displayURL) answered \(response.status)",
              status: response.status)))
      case .failure(let failure):
        return transform(.failure(failure))
      case .timerFired, .storage, .custom:
        return transform(.failure(EffectFailure(.invalidRequest, "unexpected reply \(reply) to an HTTP request")))
      }
    }
  }

  /// Performs an HTTP request and decodes a 2xx body as JSON into `type`
  /// (`JSONValueDecoder.decode(_:fromJSON:)`: dates as ISO 8601 strings
  /// with or without a fraction of a second (``JSONDate``),
  /// non-finite numbers as the strings `"Infinity"`, `"-Infinity"`, `"NaN"`).
  /// A body that is not JSON fails naming the byte; one that is not a
  /// `type`, naming the coding path.
  public static func http<Value: Decodable & Sendable>(
    _ request: HTTPRequest, decoding type: Value.Type,
    then transform: @escaping @Sendable (Result<Value, EffectFailure>) -> Action?
  ) -> Self {
    .http(request) { result in
      transform(
        result.flatMap { response in
          do {
            return .success(try JSONValueDecoder.decode(type, fromJSON: response.body))
          } catch {
            return .failure(
              EffectFailure(.decoding, "\(request.displayURL): body is not a valid \(Value.self): \(error)"))
          }
        })
    }
  }

  /// Performs a storage request.
  public static func storage(
    _ request: StorageRequest, then transform: @escaping @Sendable (Result<StorageReply, EffectFailure>) -> Action?
  ) -> Self {
    .request(.storage(request)) { reply in
      switch reply {
      case .storage(let storageReply): return transform(.success(storageReply))
      case .failure(let failure): return transform(.failure(failure))
      case .timerFired, .http, .custom:
        return transform(.failure(EffectFailure(.invalidRequest, "unexpected reply \(reply) to a storage request")))
      }
    }
  }

  /// Waits `duration` and then sends `action`, restarting the wait each time it is
  /// returned again under `id`: only the last of a quick burst is sent. A
  /// failure of the timer sends nothing.
  public static func debounce(id: some Hashable & Sendable, for duration: Duration, send action: Action) -> Self {
    .timer(after: duration, send: action).cancellable(id: id, cancelInFlight: true)
  }

  /// ``debounce(id:for:send:)``, sending `failed(failure)` instead of `action`
  /// if the timer cannot fire.
  public static func debounce(
    id: some Hashable & Sendable, for duration: Duration, send action: Action,
    failed: @escaping @Sendable (EffectFailure) -> Action
  ) -> Self {
    .timer(after: duration, send: action, failed: failed).cancellable(id: id, cancelInFlight: true)
  }
}
