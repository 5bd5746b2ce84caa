import ComposableCore
import ComposableTesting
import JSON
import Testing

/// A feature that exports through an app's own worker kind.
private struct Exporter: Reducer {
  static let kind: WorkerKind = "export"

  struct Request: Encodable, Sendable {
    var titles: [String]
    var file: String
  }
  struct Receipt: Decodable, Equatable, Sendable {
    var path: String
    var count: Int
  }
  /// A request that cannot be encoded, as a `Double.nan` in a strict encoder would.
  struct Unencodable: Encodable, Sendable {
    func encode(to encoder: any Encoder) throws {
      throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "refused on purpose"))
    }
  }

  struct State: Equatable, Sendable {}
  enum Action: Equatable, Sendable {
    case export(file: String)
    case exportUnencodable
    case wrote(Receipt)
    case failed(EffectFailure.Kind, String)
  }

  var body: some Reducer<State, Action> {
    Reduce { _, action in
      switch action {
      case .export(let file):
        return .worker(Self.kind, Request(titles: ["Milk", "Eggs"], file: file), decoding: Receipt.self) {
          outcome($0)
        }
      case .exportUnencodable:
        return .worker(Self.kind, Unencodable(), decoding: Receipt.self) { outcome($0) }
      case .wrote, .failed:
        return .none
      }
    }
  }

  private func outcome(_ result: Result<Receipt, EffectFailure>) -> Action {
    switch result {
    case .success(let receipt): .wrote(receipt)
    // The message up to its first colon: what follows quotes Swift's own
    // coding errors, whose wording is not this feature's to pin.
    case .failure(let failure): .failed(failure.kind, String(failure.message.prefix { $0 != ":" }))
    }
  }
}

/// `Effect.worker`: the request goes out as the app's JSON, and every outcome
/// comes back as the feature's action.
@Suite struct AppWorkerEffectTests {
  private static let request = EffectRequest.custom(
    kind: "export",
    payload: .object([
      "file": .string("a.json"), "titles": .array([.string("Milk"), .string("Eggs")]),
    ]))

  @Test func theRequestIsTheAppsJSONAndTheAnswerIsDecoded() {
    let store = TestStore(initialState: Exporter.State()) { Exporter() }
    store.send(.export(file: "a.json"))
    store.expectInFlight([Self.request])
    store.respond(to: Self.request, with: .custom(.object(["path": .string("/x/a.json"), "count": .int(2)])))
    store.receive(.wrote(Exporter.Receipt(path: "/x/a.json", count: 2)))
  }

  @Test func anAnswerThatIsNotTheExpectedTypeFailsAsDecoding() {
    let store = TestStore(initialState: Exporter.State()) { Exporter() }
    store.send(.export(file: "a.json"))
    store.respond(to: Self.request, with: .custom(.object(["path": .int(3)])))
    store.receive(.failed(.decoding, "the export worker's answer is not a valid Receipt"))
  }

  @Test(arguments: [EffectFailure.Kind.workerUnavailable, .interrupted, .timeout, .invalidRequest, .storage])
  func aFailureReachesTheFeatureAsItCame(_ kind: EffectFailure.Kind) {
    let store = TestStore(initialState: Exporter.State()) { Exporter() }
    store.send(.export(file: "a.json"))
    store.respond(to: Self.request, with: .failure(EffectFailure(kind, "it went wrong")))
    store.receive(.failed(kind, "it went wrong"))
  }

  @Test func aReplyOfAnotherKindIsAFailure() {
    let store = TestStore(initialState: Exporter.State()) { Exporter() }
    store.send(.export(file: "a.json"))
    store.respond(to: Self.request, with: .timerFired(tick: 1))
    store.receive(.failed(.invalidRequest, "unexpected reply timerFired(tick"))
  }

  @Test func aRequestThatDoesNotEncodeFailsAtOnceWithoutAWorker() {
    let store = TestStore(initialState: Exporter.State()) { Exporter() }
    store.send(.exportUnencodable)
    #expect(store.inFlight.isEmpty)
    store.receive(.failed(.invalidRequest, "the export request does not encode as JSON"))
  }
}
