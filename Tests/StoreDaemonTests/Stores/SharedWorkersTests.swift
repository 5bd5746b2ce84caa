import ComposableCore
import EffectRequests
import Testing
import Wire

@testable import StoreDaemon

/// The effect workers as the stores share them, in memory: two stores
/// number their requests alike, and each reply still reaches the store
/// that started the request, under its own id.
@Suite struct SharedWorkersTests {
  let workers = ScriptedWorkers()
  let shared: SharedWorkers
  let first: StoreWorkers
  let second: StoreWorkers

  init() {
    shared = SharedWorkers(workers)
    first = shared.workers(for: 0)
    second = shared.workers(for: 1, name: try? StoreName("alice"))
  }

  static let once = EffectRequest.timer(.after(.seconds(1)))
  static let ticking = EffectRequest.timer(.every(.seconds(1)))

  @Test func twoStoresRequestsOfTheSameIdReachTheWorkersApartAndComeBack() throws {
    first.start(Self.once, id: 1)
    second.start(Self.once, id: 1)
    let ids = workers.started.map(\.id)
    #expect(ids.count == 2 && Set(ids).count == 2, "\(ids)")
    let toSecond = try #require(shared.route(.timerFired(tick: 1), to: ids[1]))
    #expect(toSecond.store == 1 && toSecond.id == 1)
    let toFirst = try #require(shared.route(.timerFired(tick: 1), to: ids[0]))
    #expect(toFirst.store == 0 && toFirst.id == 1)
    // A one-off timer's reply is its last: the routes are gone.
    #expect(shared.route(.timerFired(tick: 1), to: ids[0]) == nil)
    #expect(shared.inFlight == 0)
  }

  @Test func aRepeatingRequestKeepsItsRouteUntilCancelled() throws {
    second.start(Self.ticking, id: 7)
    let id = try #require(workers.started.first?.id)
    for tick in 1...3 {
      #expect(shared.route(.timerFired(tick: tick), to: id).map { [$0.store, Int($0.id)] } == [1, 7])
    }
    second.cancel(7)
    #expect(workers.cancelled == [id])
    #expect(shared.route(.timerFired(tick: 4), to: id) == nil)
    // A store cancels only its own: the first store's id 7 is not the second's.
    second.start(Self.ticking, id: 7)
    first.cancel(7)
    #expect(workers.cancelled == [id])
  }

  @Test func aFailureTheWorkersMadeUpGoesToItsStoreOnly() throws {
    first.start(Self.once, id: 3)
    second.start(Self.once, id: 3)
    let secondsID = workers.started[1].id
    let failure = EffectFailure(.workerUnavailable, "the timer worker died")
    workers.madeUp = [(.failure(failure), secondsID)]
    #expect(first.takeReplies().isEmpty)
    let replies = second.takeReplies()
    #expect(replies.count == 1 && replies.first?.1 == 3 && replies.first?.0 == .failure(failure))
    #expect(second.takeReplies().isEmpty)
    #expect(shared.inFlight == 1)
  }

  /// Each request reaches the workers with its store's name, so that the
  /// storage worker keeps each store's documents apart; the default store's
  /// go without one.
  @Test func eachRequestReachesTheWorkersWithItsStoresName() throws {
    let list = EffectRequest.storage(.list(namespace: "bmi-history"))
    second.start(list, id: 2)
    first.start(list, id: 2)
    #expect(workers.started.map(\.store) == [try StoreName("alice"), nil])
    #expect(workers.started.allSatisfy { $0.request == list })
  }
}
