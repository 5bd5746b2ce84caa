import ActionLanguage
import ComposableCore
import JSON
import Testing

/// Checks the contract an app's reducer `R` offers its clients, as the
/// daemon reads them: the first test of every hosted app.
///
/// ```swift
/// @Test func contract() { assertContract(of: Todos.self, states: [Todos.State()]) }
/// ```
///
/// For every action path the schema lists (one per leaf case, element and
/// binding field, from ``ActionSchema/samples``):
///
/// - every action type's ``DescribedAction/describedCases`` can be read
///   (``ActionSchema/allProblems``);
/// - the path's JSON is the action's own encoding, and decoding it then
///   encoding the action gives the same action and the same JSON;
/// - the path form and the JSON form read as the same action and record the
///   same JSON, as do the other spellings of it (the long JSON form, an
///   optional value written `null` or left out);
/// - every malformed spelling is refused with a message, never taken and
///   never a crash: a value left out, `null`, of the wrong type or an array
///   nested 600 deep in its place, a word or a member too many, a case or
///   field the schema
///   lacks (``ActionSchema/variants(of:)``);
/// - an internal case is found internal in its JSON, so the daemon refuses
///   it from clients.
///
/// And each of `states` survives the daemon's JSON exactly
/// (`TestStore` checks every state an app's own tests produce the same way),
/// and, when it lists its parts (`StateParts`), lists the members its
/// encoding writes, no more and no fewer, down through the parts that list
/// their own.
public func assertContract<R: Reducer>(
  of reducer: R.Type, states: [R.State] = [], sourceLocation: Testing.SourceLocation = #_sourceLocation
) where R.Action: DescribedAction & Equatable, R.State: Codable & Equatable {
  var failures = ContractCheck<R.Action>().failures
  for state in states {
    if let problem = StateRoundTrip.problem(with: state) { failures.append(problem) }
    if let problem = StatePartsListing.problem(with: state) { failures.append(problem) }
  }
  for failure in failures.prefix(20) {
    Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
  }
  if failures.count > 20 {
    Issue.record(Comment(rawValue: "… and \(failures.count - 20) more"), sourceLocation: sourceLocation)
  }
}

/// The checks of ``assertContract(of:states:sourceLocation:)`` on the
/// actions of one app, with what failed.
struct ContractCheck<Action: DescribedAction & Equatable> {
  let schema = Action.actionSchema
  private(set) var failures: [String] = []

  init() {
    failures += schema.allProblems.map(\.description)
    for sample in schema.samples {
      check(sample)
    }
  }

  private mutating func check(_ sample: ActionSample) {
    let path = sample.entry.path
    let read: ReadAction<Action>
    do {
      read = try schema.read(Action.self, json: sample.action)
    } catch {
      failures.append("\(path): its JSON \(CanonicalJSON.text(sample.action)) is refused: \(error)")
      return
    }
    if read.json != sample.action {
      failures.append(
        "\(path): its JSON \(CanonicalJSON.text(sample.action)) is not the action's own encoding, "
          + CanonicalJSON.text(read.json))
    }
    if (try? CanonicalJSON.decode(Action.self, from: read.json)) != read.action {
      failures.append("\(path): \(CanonicalJSON.text(read.json)) does not decode as the action it encodes")
    }
    if sample.entry.isInternal != (schema.internalSender(of: read.json) != nil) {
      failures.append("\(path): listed as \(sample.entry.isInternal ? "internal" : "a client's"), read otherwise")
    }
    let variants = schema.variants(of: sample)
    if variants.equivalent.isEmpty {
      failures.append("\(path): \(CanonicalJSON.text(sample.action)) has no command line")
    }
    for (left, right, note) in variants.equivalent {
      switch (self.read(left), self.read(right)) {
      case (.success(let one), .success(let other)):
        if one.json != other.json || one.action != other.action {
          failures.append(
            "\(path), \(note): \(left) reads as \(CanonicalJSON.text(one.json)) "
              + "but \(right) as \(CanonicalJSON.text(other.json))")
        }
      case (.failure(let error), _):
        failures.append("\(path), \(note): \(left) is refused: \(error)")
      case (_, .failure(let error)):
        failures.append("\(path), \(note): \(right) is refused: \(error)")
      }
    }
    for (input, note) in variants.malformed {
      if case .success(let taken) = self.read(input) {
        failures.append("\(path): \(note) is taken, as \(CanonicalJSON.text(taken.json)): \(input)")
      }
    }
  }

  private func read(_ input: ActionInput) -> Result<ReadAction<Action>, ActionReadError> {
    Result { () throws(ActionReadError) in
      switch input {
      case .path(let path, let words): try schema.read(Action.self, path: path, arguments: words)
      case .json(let json): try schema.read(Action.self, json: json)
      }
    }
  }
}
