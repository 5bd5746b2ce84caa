extension Effect {
  /// Tags this effect with `id` so that ``cancel(id:)`` can stop it.
  ///
  /// With `cancelInFlight`, effects already running under the same id (in the
  /// same feature) are cancelled first, so only the newest one runs: the basis
  /// of debounce and of "only the latest search lands".
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    if isNone && !cancelInFlight { return self }
    return Self(.cancellable(id: CancelID(id), cancelInFlight: cancelInFlight, self))
  }

  /// Cancels the effects running under `id` in this feature. Requests in flight
  /// are cancelled at their worker; their replies, if any arrive, are dropped.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(.cancel(id: CancelID(id)))
  }

  /// Runs this effect inside a child scope. Used by the scoping reducers.
  ///
  /// The component is made only for an effect that does something: its name
  /// is a key path's description, which costs more than most reducers do,
  /// and most actions return no effect.
  @usableFromInline func scoped(_ component: @autoclosure () -> ScopeComponent) -> Self {
    if isNone { return self }
    return Self(.scoped(component(), self))
  }

  /// Cancels every effect a child started, when the child's state goes away.
  static func cancelScope(_ component: ScopeComponent) -> Self {
    Self(.cancelScope(component))
  }
}
