import JSON

extension Effect {
  /// Asks the app's own worker of `kind` to carry out `request`, and decodes
  /// its answer as `type`.
  ///
  /// `request` travels to the worker as JSON (`JSONValue(encoding:)`), and
  /// the worker's answer is decoded with `JSONValueDecoder`. Whatever goes
  /// wrong reaches `transform` as a failure, so a feature waiting on the
  /// worker never waits forever:
  ///
  /// - ``EffectFailure/Kind/workerUnavailable``: the worker is down, starting
  ///   too long, or degraded after crashing repeatedly; nothing was done.
  /// - ``EffectFailure/Kind/interrupted``: the worker ended after it was
  ///   handed the request; it may or may not have been carried out.
  /// - ``EffectFailure/Kind/timeout``: no answer within the kind's timeout.
  /// - ``EffectFailure/Kind/decoding``: the answer is not a `type`.
  /// - ``EffectFailure/Kind/invalidRequest``: `request` does not encode as
  ///   JSON, or no worker serves `kind`.
  /// - any kind the worker reports itself, with its message.
  ///
  /// ```swift
  /// case .exportButtonTapped:
  ///   return .worker("export", ExportRequest(todos: state.todos, file: "todos.json"),
  ///                  decoding: ExportReceipt.self) { .exportFinished($0) }
  /// ```
  ///
  /// - Parameters:
  ///   - kind: a kind the app declares to the daemon, with the program that serves it.
  ///   - request: the request, as the worker reads it.
  ///   - type: what the worker answers.
  ///   - transform: the action for the outcome, or nil for none.
  public static func worker<Request: Encodable, Reply: Decodable & Sendable>(
    _ kind: WorkerKind, _ request: Request, decoding type: Reply.Type,
    then transform: @escaping @Sendable (Result<Reply, EffectFailure>) -> Action?
  ) -> Self {
    let payload: JSONValue
    do {
      payload = try JSONValue(encoding: request)
    } catch {
      let failure = EffectFailure(.invalidRequest, "the \(kind) request does not encode as JSON: \(error)")
      return transform(.failure(failure)).map(Self.send) ?? .none
    }
    return .request(.custom(kind: kind, payload: payload)) { reply in
      switch reply {
      case .custom(let answer):
        do {
          return transform(.success(try JSONValueDecoder.decode(type, from: answer)))
        } catch {
          return transform(
            .failure(EffectFailure(.decoding, "the \(kind) worker's answer is not a valid \(Reply.self): \(error)")))
        }
      case .failure(let failure):
        return transform(.failure(failure))
      case .timerFired, .http, .storage:
        return transform(
          .failure(EffectFailure(.invalidRequest, "unexpected reply \(reply) to a request of the kind '\(kind)'")))
      }
    }
  }
}
