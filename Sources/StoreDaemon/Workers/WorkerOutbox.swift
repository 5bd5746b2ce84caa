import Dispatch
import Glibc
import Synchronization

/// The commands waiting to be written to one effect worker, bounded, so a
/// worker that reads slowly can never make the daemon wait or grow without
/// bound.
///
/// The store loop offers frames; the link's writer thread takes them. (The
/// clients' ``Outbox`` is written by the loop itself, from its event loop.)
/// Two kinds of traffic wait here, each bounded by ``limit`` on its own:
///
/// - *Answers* to the client's own requests (and the last words before a
///   close) are never refused. While ``answersAreFull``, the loop handles
///   none of the client's further requests, until the client reads enough
///   (``whenRoom(_:)``); so unread answers stay within the limit and one
///   answer.
/// - *Unsolicited* traffic (diffs, heartbeats, snapshots, log records) is
///   refused past the limit, answers not counted. Subscription traffic is
///   *droppable*: the loop drops it and resynchronises the subscriber with
///   a snapshot instead, which always fits once the diffs are gone.
///
/// While the store loop has reduced actions whose journal records are not yet
/// durable, it *holds* the outboxes: frames offered meanwhile wait until
/// ``release()`` (the batch is durable) or are thrown away by
/// ``discardHeld()`` (it was rejected), so no client ever sees a version that
/// a crash could take back.
///
/// *Write-through*: given its socket, the outbox writes what becomes
/// takeable itself, at once and without blocking, whenever the writer thread
/// is idle, so an acknowledgement or a diff does not wait for that thread to
/// wake up (a futex wake and a context switch per frame and connection). What
/// the socket does not take is left for the writer thread, whose writes may
/// wait, up to the socket's timeout. The write happens under the outbox's
/// lock, and the writer thread ``retire()``s the outbox under that lock
/// before the socket may be closed, so the descriptor is never written after
/// its connection let go of it.
final class WorkerOutbox: Sendable {
  /// What a waiting frame is, for the limits and for dropping.
  enum Kind {
    /// An answer, or the rest of a frame the socket took only part of:
    /// never refused, never dropped.
    case answer
    /// Unsolicited, and dropped for a snapshot when the subscriber lags.
    case droppable
    /// Unsolicited, and never dropped (a log record).
    case kept
  }

  private struct State {
    var frames: [(bytes: [UInt8], kind: Kind)] = []
    var head = 0
    /// The index in `frames` from which frames are held; nil when none are.
    var heldFrom: Int?
    /// The bytes of the answers waiting, and of everything else.
    var answerBytes = 0
    var unsolicitedBytes = 0
    var isFinished = false
    var lastTakenAt = ContinuousClock.now
    /// The writer thread holds frames it took and is writing them.
    var writerIsBusy = false
    /// The writer thread has ended: nothing is written through any more.
    var isRetired = false
    /// Called once fewer than `limit` bytes of answers wait (``whenRoom(_:)``).
    var onRoom: (@Sendable () -> Void)?

    mutating func count(_ bytes: Int, of kind: Kind) {
      if kind == .answer { answerBytes += bytes } else { unsolicitedBytes += bytes }
    }
  }

  /// The most bytes of answers, and of unsolicited frames, that may wait.
  let limit: Int
  /// The socket written through to; nil to leave every write to the writer thread.
  private let descriptor: Int32?
  private let state = Mutex(State())
  private let available = DispatchSemaphore(value: 0)

  init(limit: Int, writingThroughTo descriptor: Int32? = nil) {
    self.limit = limit
    self.descriptor = descriptor
  }

  /// Queues an answer; it is never refused. Discarded after ``finish()``.
  func offerAnswer(_ frame: [UInt8]) {
    queue(frame, .answer)
  }

  /// Queues an unsolicited frame unless the unsolicited frames waiting would
  /// pass the limit (an empty queue takes a frame of any size); returns
  /// whether it was queued. Frames offered after ``finish()`` are discarded.
  @discardableResult
  func offer(_ frame: [UInt8], droppable: Bool) -> Bool {
    queue(frame, droppable ? .droppable : .kept)
  }

  @discardableResult
  private func queue(_ frame: [UInt8], _ kind: Kind) -> Bool {
    let (queued, takeable, onRoom) = state.withLock { state -> (Bool, Bool, (@Sendable () -> Void)?) in
      guard !state.isFinished else { return (false, false, nil) }
      if kind != .answer && state.unsolicitedBytes > 0 && state.unsolicitedBytes + frame.count > limit {
        return (false, false, nil)
      }
      state.frames.append((frame, kind))
      state.count(frame.count, of: kind)
      let takeable = state.heldFrom == nil && !writeThrough(&state)
      return (true, takeable, takeRoomCallback(&state))
    }
    // A held frame wakes the writer when it is released, not now: waking it
    // to find nothing it may take costs a context switch per frame.
    if takeable { available.signal() }
    onRoom?()
    return queued
  }

  /// Whether `limit` bytes of answers or more wait: the client's next
  /// requests should wait until it has read them.
  var answersAreFull: Bool { state.withLock { $0.answerBytes >= limit } }

  /// Calls `action` once fewer than `limit` bytes of answers wait: at once
  /// if that is so now, else from the thread that takes the bytes that make
  /// the room. A later call replaces an earlier one not yet made.
  func whenRoom(_ action: @escaping @Sendable () -> Void) {
    let onRoom = state.withLock { state -> (@Sendable () -> Void)? in
      state.onRoom = action
      return takeRoomCallback(&state)
    }
    onRoom?()
  }

  /// The room callback, taken out, if there is room now.
  private func takeRoomCallback(_ state: inout State) -> (@Sendable () -> Void)? {
    guard state.onRoom != nil, state.answerBytes < limit else { return nil }
    defer { state.onRoom = nil }
    return state.onRoom
  }

  /// Drops the droppable frames still waiting; returns how many bytes it freed.
  @discardableResult
  func dropDroppable() -> Int {
    state.withLock { state in
      var kept: [(bytes: [UInt8], kind: Kind)] = []
      var heldFrom: Int?
      var freed = 0
      for index in state.frames.indices[state.head...] {
        if let held = state.heldFrom, index >= held, heldFrom == nil { heldFrom = kept.count }
        if state.frames[index].kind == .droppable {
          freed += state.frames[index].bytes.count
        } else {
          kept.append(state.frames[index])
        }
      }
      if state.heldFrom != nil && heldFrom == nil { heldFrom = kept.count }
      state.frames = kept
      state.head = 0
      state.heldFrom = heldFrom
      state.unsolicitedBytes -= freed
      return freed
    }
  }

  /// Holds the frames offered from now on until ``release()`` or
  /// ``discardHeld()``; already holding, it changes nothing.
  func hold() {
    state.withLock { state in
      if state.heldFrom == nil { state.heldFrom = state.frames.count }
    }
  }

  /// Lets the writer take the held frames.
  func release() {
    let (released, onRoom) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
      guard let held = state.heldFrom else { return (false, nil) }
      state.heldFrom = nil
      if state.isFinished { return (true, nil) }
      return (held < state.frames.count && !writeThrough(&state), takeRoomCallback(&state))
    }
    // Only an outbox that held something wakes its writer: the store loop
    // holds and releases every client's outbox for every batch.
    if released { available.signal() }
    onRoom?()
  }

  /// Throws the held frames away; returns how many there were.
  @discardableResult
  func discardHeld() -> Int {
    let (count, onRoom) = state.withLock { state -> (Int, (@Sendable () -> Void)?) in
      guard let held = state.heldFrom else { return (0, nil) }
      let discarded = state.frames[held...]
      for frame in discarded { state.count(-frame.bytes.count, of: frame.kind) }
      state.frames.removeSubrange(held...)
      state.heldFrom = nil
      return (discarded.count, takeRoomCallback(&state))
    }
    available.signal()
    onRoom?()
    return count
  }

  /// Stops writing through: the writer thread calls it as it ends, before
  /// the socket may be closed. Waits for a write through in progress.
  func retire() {
    state.withLock { $0.isRetired = true }
  }

  /// No more frames will be offered; the writer ends once the queue is empty.
  func finish() {
    state.withLock { $0.isFinished = true }
    available.signal()
  }

  /// The next frame, waiting for one; `nil` once finished and empty.
  func next() -> [UInt8]? {
    next(upTo: 0)
  }

  /// The frames ready to be written, back to back, waiting for at least one;
  /// `nil` once finished and empty. Frames are added while the total stays
  /// within `maximumBytes` (the first is taken whatever its size), so that
  /// several frames cost one write.
  func next(upTo maximumBytes: Int) -> [UInt8]? {
    while true {
      let (batch, onRoom) = state.withLock { state -> ([UInt8]??, (@Sendable () -> Void)?) in
        // Called again: what the writer took last time is written.
        state.writerIsBusy = false
        if let bytes = Self.take(&state, upTo: maximumBytes) {
          state.writerIsBusy = true
          return (.some(bytes), takeRoomCallback(&state))
        }
        // A finished outbox still owes its held frames once they are released.
        return (state.isFinished && state.heldFrom == nil ? .some(nil) : nil, nil)
      }
      onRoom?()
      if let batch { return batch }
      available.wait()
    }
  }

  /// Takes the frames that may be written, back to back, up to
  /// `maximumBytes` (the first whatever its size); nil when there are none.
  private static func take(_ state: inout State, upTo maximumBytes: Int) -> [UInt8]? {
    let end = state.heldFrom ?? state.frames.count
    guard state.head < end else { return nil }
    var bytes = state.frames[state.head].bytes
    state.count(-bytes.count, of: state.frames[state.head].kind)
    state.head += 1
    while state.head < end && bytes.count + state.frames[state.head].bytes.count <= maximumBytes {
      bytes += state.frames[state.head].bytes
      state.count(-state.frames[state.head].bytes.count, of: state.frames[state.head].kind)
      state.head += 1
    }
    state.lastTakenAt = .now
    if state.head == state.frames.count {
      state.frames.removeAll(keepingCapacity: true)
      state.head = 0
      if state.heldFrom != nil { state.heldFrom = 0 }
    }
    return bytes
  }

  /// Writes the takeable frames to the socket without blocking, if the
  /// writer thread is idle; returns whether nothing is left for it. What the
  /// socket did not take goes back to the front of the queue, a frame's
  /// remainder included, for the writer thread.
  private func writeThrough(_ state: inout State) -> Bool {
    guard let descriptor, !state.writerIsBusy, !state.isRetired else { return false }
    var lastTakenAt = state.lastTakenAt
    while let bytes = Self.take(&state, upTo: Self.writeBatchBytes) {
      let written = bytes.withUnsafeBytes {
        send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
      }
      // Only bytes the socket took say that the client made room.
      if written > 0 { lastTakenAt = state.lastTakenAt } else { state.lastTakenAt = lastTakenAt }
      if written == bytes.count { continue }
      // EAGAIN (the client is not reading), or a failure the writer thread
      // will meet and end the connection on.
      // The rest of a frame begun must follow: it is never dropped.
      let rest = Array(bytes[max(written, 0)...])
      state.frames.insert((rest, .answer), at: state.head)
      if let held = state.heldFrom, held >= state.head { state.heldFrom = held + 1 }
      state.answerBytes += rest.count
      return false
    }
    return true
  }

  /// The most bytes a writer takes at once.
  static let writeBatchBytes = 256 * 1024

  /// When the writer last took a frame: it takes one only after the previous
  /// one was written, so this says when the client last made room by reading.
  var lastTakenAt: ContinuousClock.Instant { state.withLock { $0.lastTakenAt } }
}
