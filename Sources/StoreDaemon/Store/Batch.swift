import ComposableCore
import JSON
import Journal
import Wire

/// The actions reduced since the last commit to the journal: their records,
/// what they answered, the effects they started, and what undoing them takes.
/// Nothing of a batch leaves the daemon before its records are durable: the
/// outboxes of the clients it speaks to are held (``HoldGate``), and the
/// effects' starts wait here.
///
/// A batch is *open* while the loop reduces into it, then *closed* when its
/// records are written; under `--fsync always` it stays in flight, its
/// frames held, while it is synced beside the loop and the next batch is
/// reduced.
///
/// A class: the loop asks whether a batch is open twice per publication and
/// takes it out to commit it; a reference is one retain, where a struct's
/// `Batch?` would be copied, the state before it included.
final class Batch {
  /// What the loop was before the batch, to go back to if it is refused
  /// (the state before it the loop keeps itself: this type is not generic
  /// over the hosted app's state, so that the code handling batches is not
  /// either).
  struct Before {
    let version: UInt64
    let waits: SettledWaits
    /// Requests from this id on were started by the batch's actions.
    let firstRequestID: EffectID
  }

  enum Answer {
    case reply(Connection, ServerMessage)
    case acknowledgement(Connection, requestID: Int, origin: Origin)
  }

  let before: Before
  /// The batch's number, which its outboxes' hold marks carry.
  let number: UInt64
  /// The gate that holds outboxes for the batch while it is open.
  private let gate: HoldGate
  /// The outboxes the batch speaks to, including those of clients that go
  /// away before it ends (their last words wait for the commit too): the
  /// gate's until the batch closes, then the batch's.
  private var held: [Outbox] = []
  /// The version the batch ended at, once closed, and the document at it
  /// when a snapshot is due once the batch is durable (none otherwise: a
  /// batch that held the document would make the next one copy what it
  /// changes of it).
  private(set) var end: (version: UInt64, document: JSONValue?)?
  /// The batch's records, as the journal writes them.
  private(set) var encoded: EncodedRecords
  /// The records as values too, where something reads them as values: the
  /// log's followers, the replicated log (``JournalCommitter/record(_:)``).
  private(set) var records: [JournalRecord] = []
  /// What the batch answered, in order, acknowledgements and other answers
  /// alike: the frames are held, so if the batch is refused they are thrown
  /// away and given again, each client's in the order of its requests (an
  /// acknowledgement becomes a `journal` error).
  private(set) var answers: [Answer] = []
  /// The requests the batch's actions started, in order, for the supervisor
  /// once the batch is durable.
  private var starts: [(request: EffectRequest, id: EffectID)] = []
  /// Requests the batch's actions cancelled whose starts wait in the batch
  /// before it, cancelled once this one is durable.
  private var cancels: [EffectID] = []

  /// Opens a batch: every outbox offered a frame holds it until it ends.
  /// `expectedAnswers` is room made for the answers at once, as many as
  /// the batch before gave: batches under a steady load are alike, and the
  /// answers' array then grows in one step instead of doubling its way up.
  init(before: Before, number: UInt64, gate: HoldGate, buffer: [UInt8] = [], expectedAnswers: Int = 0) {
    self.before = before
    self.number = number
    self.gate = gate
    encoded = EncodedRecords(reusing: buffer)
    answers.reserveCapacity(expectedAnswers)
    gate.isHolding = true
    gate.batch = number
  }

  /// The batch ended at `version`: it holds no more outboxes (the next
  /// batch holds its own).
  func close(version: UInt64) {
    end = (version, nil)
    guard gate.isHolding && gate.batch == number else { return }
    gate.isHolding = false
    held = gate.held
    gate.held.removeAll(keepingCapacity: true)
  }

  /// Keeps the document the batch ended at, for the snapshot due once it
  /// is durable.
  func keepForSnapshot(_ document: JSONValue) {
    guard let version = end?.version else { return }
    end = (version, document)
  }

  /// Adds the record of `version` from its parts' canonical JSON.
  func append(
    version: UInt64, time: Int64, action: [UInt8], inputs: JSONValue?, origin: RecordOrigin, patch: [UInt8]
  ) {
    encoded.append(version: version, time: time, action: action, inputs: inputs, origin: origin, patch: patch)
  }

  /// Adds `record`, kept as a value too.
  func append(_ record: JournalRecord) {
    encoded.append(record)
    records.append(record)
  }

  /// The encoded records' storage, for the next batch, once they are
  /// written (the batch holds none then).
  func takeBuffer() -> [UInt8] {
    let bytes = encoded.bytes
    encoded = EncodedRecords()
    return bytes
  }

  func append(_ answer: Answer) {
    answers.append(answer)
  }

  /// Holds a request's start until the batch is durable.
  func hold(_ request: EffectRequest, id: EffectID) {
    starts.append((request, id))
  }

  /// Whether the start of `id` waits in the batch.
  func holdsStart(_ id: EffectID) -> Bool {
    starts.contains { $0.id == id }
  }

  /// Holds the cancel of `id`, whose start waits in the batch before this
  /// one, until this one is durable.
  func holdCancel(_ id: EffectID) {
    cancels.append(id)
  }

  /// Forgets the held start of `id`; whether there was one.
  func cancelStart(_ id: EffectID) -> Bool {
    guard let index = starts.firstIndex(where: { $0.id == id }) else { return false }
    starts.remove(at: index)
    return true
  }

  /// The batch is durable: its effects start first (a request written before
  /// the clients' frames is under way in its worker while the loop writes to
  /// every client; its reply is read by the loop only after the frames are
  /// out, so nothing overtakes them).
  func startEffects(on executor: some EffectExecutor) {
    for (request, id) in starts { executor.start(request, id: id) }
    starts.removeAll()
    for id in cancels { executor.cancel(id) }
    cancels.removeAll()
  }

  /// The closed batch is durable: lets its held frames go, and writes them.
  func releaseOutboxes() {
    for outbox in held { outbox.release(batch: number) }
    held = []
  }

  /// The batch was refused: its held frames are thrown away, with those of
  /// every batch from `first` on (and its starts never made).
  func discardOutboxes(from first: UInt64) {
    if gate.isHolding && gate.batch == number {
      gate.isHolding = false
      held = gate.held
      gate.held.removeAll(keepingCapacity: true)
    }
    starts.removeAll()
    cancels.removeAll()
    for outbox in held { outbox.discardHeld(from: first) }
    held = []
  }
}
