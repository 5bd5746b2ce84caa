import ComposableCore
import Foundation
import TestSupport
import Testing
import Wire

/// The network worker as a real process, against loopback ports that refuse
/// or never answer.
@Suite(.ownThreads) struct NetworkWorkerTests {
  @Test func aRefusedConnectionIsAConnectionFailureNamingTheRequest() throws {
    let directory = try TemporaryDirectory()
    let refusing = try LoopbackPort(.refusing)
    let worker = try SpawnedWorker(.network, in: directory)
    let reply = try worker.perform(.http(.get(refusing.url("/products?api_key=SECRET"))), id: 1)
    guard case .failure(let failure) = reply else {
      Issue.record("expected a failure, got \(reply)")
      return
    }
    #expect(failure.kind == .connection)
    #expect(failure.message.hasPrefix("GET \(refusing.url("/products"))?…: could not connect to the server"))
    #expect(!failure.message.contains("SECRET"))
  }

  @Test func aBadURLIsAnInvalidRequestAndTheWorkerCarriesOn() throws {
    let directory = try TemporaryDirectory()
    let worker = try SpawnedWorker(.network, in: directory)
    #expect(
      try worker.perform(.http(.get("http://[::1")), id: 1)
        == .failure(EffectFailure(.invalidRequest, "GET http://[::1: the URL is not valid")))
    #expect(
      try worker.perform(.http(.get("gopher://example.com/")), id: 2)
        == .failure(
          EffectFailure(
            .invalidRequest, "GET gopher://example.com/: the scheme 'gopher' is not supported; use http or https")))
    #expect(
      try worker.perform(.storage(.list(namespace: "n")), id: 3)
        == .failure(
          EffectFailure(
            .invalidRequest, "the network worker does not carry out storage requests; they go to the storage worker")))
    #expect(try worker.eventsBeforePong(1).isEmpty)
  }

  /// The deadline covers the whole exchange: a server that takes the
  /// request and never answers times out on time.
  @Test func aServerThatNeverAnswersTimesOut() throws {
    let directory = try TemporaryDirectory()
    let silent = try LoopbackPort(.silent)
    let worker = try SpawnedWorker(.network, in: directory)
    let started = ContinuousClock.now
    let reply = try worker.perform(.http(.get(silent.url("/slow"), timeout: .milliseconds(400))), id: 1)
    #expect(ContinuousClock.now - started >= .milliseconds(390))
    #expect(
      reply == .failure(EffectFailure(.timeout, "GET \(silent.url("/slow")): no complete response within 400 ms")))
  }

  @Test func aCancelledRequestIsNeverAnswered() throws {
    let directory = try TemporaryDirectory()
    let silent = try LoopbackPort(.silent)
    let worker = try SpawnedWorker(.network, in: directory)
    try worker.send(.start(id: 1, request: .http(.get(silent.url("/a"), timeout: .milliseconds(300)))))
    try worker.send(.start(id: 2, request: .http(.get(silent.url("/b"), timeout: .milliseconds(300)))))
    try worker.send(.cancel(id: 1))
    // Request 2 times out; request 1, cancelled, would have too.
    let (id, reply) = try worker.reply()
    #expect(id == 2)
    if case .failure(let failure) = reply { #expect(failure.kind == .timeout) } else { Issue.record("\(reply)") }
    // A request started now times out after request 1 would have: its
    // answer must be the next.
    let later = try worker.perform(.http(.get(silent.url("/c"), timeout: .milliseconds(300))), id: 3)
    if case .failure(let failure) = later { #expect(failure.kind == .timeout) } else { Issue.record("\(later)") }
  }

  @Test func pingIsAnsweredWhileRequestsAreInFlight() throws {
    let directory = try TemporaryDirectory()
    let silent = try LoopbackPort(.silent)
    let worker = try SpawnedWorker(.network, in: directory)
    try worker.send(
      (1...20).map { .start(id: EffectID($0), request: .http(.get(silent.url("/\($0)"), timeout: .seconds(60)))) })
    #expect(try worker.eventsBeforePong(1).isEmpty)
  }
}
