extension EffectFailure: DescribedValue {
  /// A failure is what workers report; a person can still send one as JSON,
  /// e.g. `'{"kind":"timeout","message":"no answer"}'`, to see how a feature
  /// shows it.
  public static var valueSchema: ValueSchema {
    .json(EffectFailure.self, sample: EffectFailure(.connection, "The connection was refused."))
  }
}
