import FoundationEssentials

extension Effect {
  /// Asks a worker to carry out `request`, mapping each reply to an action (or to
  /// none, by returning `nil`).
  public static func request(
    _ request: EffectRequest, then transform: @escaping @Sendable (EffectReply) -> Action?
  ) -> Self {
    Self(.request(request, ReplyMapping(transform)))
  }

  /// Sends `action` once, `delay` from now, through the timer worker.
  public static func timer(after delay: Duration, send action: Action) -> Self {
    .request(.timer(.after(delay))) { reply in
      if case .timerFired = reply { return action }
      return nil
    }
  }

  /// Sends `action(tick)` every `interval` until cancelled.
  public static func timer(every interval: Duration, send action: @escaping @Sendable (Int) -> Action) -> Self {
    .request(.timer(.every(interval))) { reply in
      if case .timerFired(let tick) = reply { return action(tick) }
      return nil
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
        return transform(.failure(EffectFailure(.httpStatus, "\(request.method) \(request.displayURL) answered \(response.status)", status: response.status)))
      case .failure(let failure):
        return transform(.failure(failure))
      case .timerFired, .storage:
        return transform(.failure(EffectFailure(.invalidRequest, "unexpected reply \(reply) to an HTTP request")))
      }
    }
  }

  /// Performs an HTTP request and decodes a 2xx body as JSON into `type`.
  public static func http<Value: Decodable & Sendable>(
    _ request: HTTPRequest, decoding type: Value.Type,
    then transform: @escaping @Sendable (Result<Value, EffectFailure>) -> Action?
  ) -> Self {
    .http(request) { result in
      transform(
        result.flatMap { response in
          do {
            return .success(try JSONDecoder().decode(type, from: response.body))
          } catch {
            return .failure(EffectFailure(.decoding, "\(request.displayURL): body is not a valid \(Value.self): \(error)"))
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
      case .timerFired, .http:
        return transform(.failure(EffectFailure(.invalidRequest, "unexpected reply \(reply) to a storage request")))
      }
    }
  }

  /// Waits `duration` and then sends `action`, restarting the wait each time it is
  /// returned again under `id`: only the last of a quick burst is sent.
  public static func debounce(id: some Hashable & Sendable, for duration: Duration, send action: Action) -> Self {
    .timer(after: duration, send: action).cancellable(id: id, cancelInFlight: true)
  }
}
