import ComposableCore

extension EffectFailure: DescribedValue {
  /// A failure is what workers report, written as JSON:
  /// `{"kind":"timeout","message":"no answer"}`, with `status` for an HTTP
  /// status. The actions that carry one are internal; a daemon started with
  /// `--allow-internal-actions` takes them from a client, to see how a
  /// feature shows a failure.
  public static var valueSchema: ValueSchema { .json(EffectFailure.self, sample: example) }

  /// A failure as a worker reports one: the value a described case that
  /// carries a failure can give as its sample.
  public static let example = EffectFailure(.connection, "The connection was refused.")
}
