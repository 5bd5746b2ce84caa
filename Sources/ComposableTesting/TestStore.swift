import ComposableCore
import Testing

/// Tests a feature as a story: send an action and describe how the state must
/// change, receive the actions its effects produce, and answer its I/O requests
/// as a worker would — no mocks.
///
/// ```swift
/// let store = TestStore(initialState: Counter.State()) { Counter() }
/// store.send(.factButtonTapped) { $0.isLoading = true }
/// store.respond(to: .http(.get("https://numbers.test/0")), with: .http(HTTPResponse(status: 200, text: "0 is…")))
/// store.receive(.factResponse("0 is…")) {
///   $0.isLoading = false
///   $0.fact = "0 is…"
/// }
/// ```
///
/// By default the store is exhaustive: every state change must be described,
/// every received action received, and every effect finished before the store
/// goes away (or ``finish(sourceLocation:)`` is called). Each failure is a test
/// issue that names the action and shows a −/+ diff. With ``exhaustivity`` set
/// to `.off`, only what the test asserts is checked.
///
/// Timers run on a virtual clock that only ``advance(by:sourceLocation:)``
/// moves.
///
/// Every action reduced must be one its type's schema describes, and every
/// state must survive the daemon's JSON exactly (``StepContract``): the part
/// of an app's contract that its own stories exercise.
public final class TestStore<R: Reducer> where R.State: Equatable, R.Action: Equatable {
  /// How strictly the store checks the story.
  public enum Exhaustivity: Sendable, Equatable {
    /// Every change, received action and effect must be accounted for.
    case on
    /// Only the asserted fields and actions are checked; the rest is skipped.
    case off
  }

  public var exhaustivity: Exhaustivity = .on

  /// The state as the test has asserted it so far.
  public private(set) var state: R.State

  /// Virtual time elapsed since the store was created.
  public var elapsed: Duration { executor.now }

  /// The dependencies the reducer runs with; tests override them here.
  public var dependencies: DependencyValues {
    get { store.dependencies }
    set { store.dependencies = newValue }
  }

  private let store: Store<R>
  private let executor: TestExecutor
  private var reduced: [(action: R.Action, state: R.State)] = []
  private var received: [(action: R.Action, state: R.State)] = []
  private var isFinished = false
  private let creationLocation: Testing.SourceLocation
  /// What the actions reduced in the current step broke of the contract
  /// (``StepContract``), reported at the step's line.
  private var contractProblems: [String] = []

  /// Creates a test store. Dependencies are in the test context: one used
  /// without an override (and with no test value) fails the test, naming it.
  public init(
    initialState: R.State,
    reducer: () -> R,
    withDependencies prepare: (inout DependencyValues) -> Void = { _ in },
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    var dependencies = DependencyValues(context: .test)
    prepare(&dependencies)
    let executor = TestExecutor()
    self.executor = executor
    self.state = initialState
    self.creationLocation = sourceLocation
    self.store = Store(initialState: initialState, reducer: reducer(), executor: executor, dependencies: dependencies)
  }

  deinit {
    if !isFinished { finish(sourceLocation: creationLocation) }
  }

  // MARK: Sending and receiving

  /// Sends `action` and checks the state it produces: `assert` mutates the
  /// previously asserted state into the expected one.
  public func send(
    _ action: R.Action, assert: ((inout R.State) -> Void)? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    if !received.isEmpty {
      if exhaustivity == .on {
        fail(
          """
          Must handle \(received.count) received action(s) before sending \(describe(action)). Unhandled:
          \(received.map { "  " + describe($0.action) }.joined(separator: "\n"))
          """, sourceLocation)
      }
      state = received.last!.state
      received.removeAll()
    }
    run(sourceLocation) {
      store.reduce(action)
      note(action)
      reduceWaitingActions()
    }
    guard !reduced.isEmpty else { return }
    let first = reduced.removeFirst()
    received.append(contentsOf: reduced)
    reduced.removeAll()
    check(first.state, after: "send(\(describe(action)))", assert: assert, sourceLocation)
  }

  /// Receives the next action an effect produced and checks the state it
  /// produced. In non-exhaustive mode, actions before a matching one are skipped.
  public func receive(
    _ expected: R.Action, assert: ((inout R.State) -> Void)? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    guard !received.isEmpty else {
      fail(
        "Expected to receive \(describe(expected)), but no action was received.\(inFlightSummary)",
        sourceLocation)
      return
    }
    if exhaustivity == .off {
      guard let match = received.firstIndex(where: { $0.action == expected }) else {
        fail(
          "Expected to receive \(describe(expected)), but it was not among the received actions:\n"
            + received.map { "  " + describe($0.action) }.joined(separator: "\n"), sourceLocation)
        return
      }
      if match > 0 { state = received[match - 1].state }
      received.removeFirst(match)
    }
    let next = received.removeFirst()
    if next.action != expected {
      fail(
        """
        Received an unexpected action. (− expected, + received)
        \(LineDiff.render(expected: ValueDump.lines(expected), actual: ValueDump.lines(next.action)))
        """, sourceLocation)
    }
    check(next.state, after: "receive(\(describe(expected)))", assert: assert, sourceLocation)
  }

  /// Drops the received actions without checking them, adopting their state.
  public func skipReceivedActions() {
    if let last = received.last { state = last.state }
    received.removeAll()
  }

  // MARK: Requests

  /// The I/O requests in flight, oldest first.
  public var inFlight: [InFlightRequest] { store.inFlight }

  /// Checks that exactly `expected` are in flight, oldest first.
  public func expectInFlight(_ expected: [EffectRequest], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let actual = store.inFlight.map(\.request)
    guard actual != expected else { return }
    fail(
      """
      The requests in flight are not as expected. (− expected, + actual)
      \(LineDiff.render(expected: ValueDump.lines(expected), actual: ValueDump.lines(actual)))
      """, sourceLocation)
  }

  /// Answers the oldest in-flight request equal to `request` with `reply`, as a
  /// worker would; the actions it maps to are then received.
  public func respond(
    to request: EffectRequest, with reply: EffectReply, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    guard let match = store.inFlight.first(where: { $0.request == request }) else {
      fail(
        """
        No request in flight matches the one to respond to:
          \(ValueDump.oneLine(request))
        \(inFlightSummary.isEmpty ? "Nothing is in flight." : inFlightSummary)
        """, sourceLocation)
      return
    }
    deliver(reply, to: match.id, sourceLocation)
  }

  /// Answers the in-flight request `id` with `reply`.
  public func respond(
    to id: EffectID, with reply: EffectReply, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    guard store.inFlight.contains(where: { $0.id == id }) else {
      fail("No request #\(id) is in flight.\(inFlightSummary)", sourceLocation)
      return
    }
    deliver(reply, to: id, sourceLocation)
  }

  /// Moves the virtual clock forward, firing every timer that falls due on the
  /// way, in time order.
  public func advance(by duration: Duration = .zero, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let target = executor.now + duration
    while let (id, tick) = executor.nextTimer(dueBy: target) {
      deliver(.timerFired(tick: tick), to: id, sourceLocation)
    }
    executor.now = target
  }

  /// Cancels every request in flight without checking them.
  public func skipInFlightEffects() {
    for request in store.inFlight {
      store.cancel(request: request.id)
      reduceWaitingActions()
    }
    reduced.removeAll()
  }

  // MARK: Finishing

  /// Checks that nothing is left: no received action unhandled and no effect in
  /// flight. Called by `deinit` if the test does not call it.
  public func finish(sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    isFinished = true
    guard exhaustivity == .on else { return }
    if !received.isEmpty {
      fail(
        """
        The store received \(received.count) unexpected action(s):
        \(received.map { "  " + describe($0.action) }.joined(separator: "\n"))
        Assert them with receive(_:) or call skipReceivedActions().
        """, sourceLocation)
    }
    let running = store.inFlight
    if !running.isEmpty {
      fail(
        """
        \(running.count) effect(s) still in flight at the end of the test:
        \(running.map { "  " + $0.description }.joined(separator: "\n"))
        Answer them with respond(to:with:), advance the clock, or cancel them in the feature.
        """, sourceLocation)
    }
  }

  // MARK: Helpers

  private func deliver(_ reply: EffectReply, to id: EffectID, _ sourceLocation: Testing.SourceLocation) {
    run(sourceLocation) {
      store.receive(reply, for: id)
      reduceWaitingActions()
    }
    received.append(contentsOf: reduced)
    reduced.removeAll()
  }

  /// Steps the store as the daemon does (``Store/reduceNext(_:)``) until
  /// nothing waits, noting each action reduced.
  private func reduceWaitingActions() {
    while store.reduceNext({ _, action, _ in note(action) }) {}
  }

  /// Notes an action the store just reduced, with the state after it, and
  /// what it broke of the contract.
  private func note(_ action: R.Action) {
    let state = store.state
    reduced.append((action, state))
    contractProblems += StepContract.problems(action: action, state: state)
  }

  private func check(
    _ actual: R.State, after step: String, assert: ((inout R.State) -> Void)?,
    _ sourceLocation: Testing.SourceLocation
  ) {
    defer { state = actual }
    switch exhaustivity {
    case .on:
      var expected = state
      assert?(&expected)
      if expected != actual {
        let hint = assert == nil ? " The state changed, but no change was asserted." : ""
        fail(
          """
          State after \(step) is not as expected.\(hint) (− expected, + actual)
          \(LineDiff.render(expected: ValueDump.lines(expected), actual: ValueDump.lines(actual)))
          """, sourceLocation)
      } else if assert != nil && expected == state && actual == state {
        fail(
          "Expected the state to change after \(step), but it did not: the assertion made no change.",
          sourceLocation)
      }
    case .off:
      guard let assert else { return }
      var expected = actual
      assert(&expected)
      if expected != actual {
        fail(
          """
          State after \(step) is not as expected. (− expected, + actual)
          \(LineDiff.render(expected: ValueDump.lines(expected), actual: ValueDump.lines(actual)))
          """, sourceLocation)
      }
    }
  }

  private var inFlightSummary: String {
    let running = store.inFlight
    guard !running.isEmpty else { return "" }
    return "\nIn flight:\n" + running.map { "  " + $0.description }.joined(separator: "\n")
  }

  private func run(_ sourceLocation: Testing.SourceLocation, _ body: () -> Void) {
    let reporter = IssueReporter { message, location in
      var text = message
      if let location { text += " (detected at \(location))" }
      Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
    }
    IssueReporter.$current.withValue(reporter, operation: body)
    for problem in contractProblems { fail(problem, sourceLocation) }
    contractProblems.removeAll()
  }

  private func fail(_ message: String, _ sourceLocation: Testing.SourceLocation) {
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  }

  private func describe(_ action: R.Action) -> String { ValueDump.oneLine(action) }
}
