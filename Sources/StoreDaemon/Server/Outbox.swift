import Dispatch
import Synchronization

/// The frames waiting to be written to one connection, with a byte limit, so a
/// client that reads slowly can never make the daemon wait or grow without
/// bound.
///
/// The store loop offers frames; the connection's writer thread takes them.
/// Subscription traffic is *droppable*: when the limit is reached the store
/// loop drops it and resynchronises the subscriber with a snapshot instead.
///
/// While the store loop has reduced actions whose journal records are not yet
/// durable, it *holds* the outboxes: frames offered meanwhile wait until
/// ``release()`` (the batch is durable) or are thrown away by
/// ``discardHeld()`` (it was rejected), so no client ever sees a version that
/// a crash could take back.
final class Outbox: Sendable {
  private struct State {
    var frames: [(bytes: [UInt8], droppable: Bool)] = []
    var head = 0
    /// The index in `frames` from which frames are held; nil when none are.
    var heldFrom: Int?
    var byteCount = 0
    var isFinished = false
    var lastTakenAt = ContinuousClock.now
  }

  /// The most bytes that may wait.
  let limit: Int
  private let state = Mutex(State())
  private let available = DispatchSemaphore(value: 0)

  init(limit: Int) {
    self.limit = limit
  }

  /// Queues `frame` unless that would pass the limit (or `force` says it must
  /// go anyway: the last words before a close); returns whether it was queued.
  /// Frames offered after ``finish()`` are discarded.
  @discardableResult
  func offer(_ frame: [UInt8], droppable: Bool, force: Bool = false) -> Bool {
    let (queued, takeable) = state.withLock { state -> (Bool, Bool) in
      guard !state.isFinished else { return (false, false) }
      guard force || state.byteCount + frame.count <= limit || state.byteCount == 0 else { return (false, false) }
      state.frames.append((frame, droppable))
      state.byteCount += frame.count
      return (true, state.heldFrom == nil)
    }
    // A held frame wakes the writer when it is released, not now: waking it
    // to find nothing it may take costs a context switch per frame.
    if takeable { available.signal() }
    return queued
  }

  /// Drops the droppable frames still waiting; returns how many bytes it freed.
  @discardableResult
  func dropDroppable() -> Int {
    state.withLock { state in
      var kept: [(bytes: [UInt8], droppable: Bool)] = []
      var heldFrom: Int?
      for index in state.frames.indices[state.head...] {
        if let held = state.heldFrom, index >= held, heldFrom == nil { heldFrom = kept.count }
        if !state.frames[index].droppable { kept.append(state.frames[index]) }
      }
      if state.heldFrom != nil && heldFrom == nil { heldFrom = kept.count }
      let freed = state.byteCount - kept.reduce(0) { $0 + $1.bytes.count }
      state.frames = kept
      state.head = 0
      state.heldFrom = heldFrom
      state.byteCount -= freed
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
    let released = state.withLock { state -> Bool in
      defer { state.heldFrom = nil }
      guard let held = state.heldFrom else { return false }
      return held < state.frames.count || state.isFinished
    }
    // Only an outbox that held something wakes its writer: the store loop
    // holds and releases every client's outbox for every batch.
    if released { available.signal() }
  }

  /// Throws the held frames away; returns how many there were.
  @discardableResult
  func discardHeld() -> Int {
    let count = state.withLock { state -> Int in
      guard let held = state.heldFrom else { return 0 }
      let discarded = state.frames[held...]
      state.byteCount -= discarded.reduce(0) { $0 + $1.bytes.count }
      state.frames.removeSubrange(held...)
      state.heldFrom = nil
      return discarded.count
    }
    available.signal()
    return count
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
      let batch = state.withLock { state -> [UInt8]?? in
        let end = state.heldFrom ?? state.frames.count
        if state.head < end {
          var bytes = state.frames[state.head].bytes
          state.head += 1
          while state.head < end && bytes.count + state.frames[state.head].bytes.count <= maximumBytes {
            bytes += state.frames[state.head].bytes
            state.head += 1
          }
          state.lastTakenAt = .now
          state.byteCount -= bytes.count
          if state.head == state.frames.count {
            state.frames.removeAll(keepingCapacity: true)
            state.head = 0
            if state.heldFrom != nil { state.heldFrom = 0 }
          }
          return .some(bytes)
        }
        // A finished outbox still owes its held frames once they are released.
        return state.isFinished && state.heldFrom == nil ? .some(nil) : nil
      }
      if let batch { return batch }
      available.wait()
    }
  }

  /// The most bytes a writer takes at once.
  static let writeBatchBytes = 256 * 1024

  /// When the writer last took a frame: it takes one only after the previous
  /// one was written, so this says when the client last made room by reading.
  var lastTakenAt: ContinuousClock.Instant { state.withLock { $0.lastTakenAt } }
}
