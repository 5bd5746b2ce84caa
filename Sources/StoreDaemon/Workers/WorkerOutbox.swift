import Dispatch
import Glibc
import Synchronization

/// The commands waiting to be written to one effect worker, bounded, so a
/// worker that reads slowly can never make the daemon wait or grow without
/// bound: past ``limit`` bytes waiting, a new command is refused (and its
/// request fails).
///
/// The store loop offers frames; the link's writer thread takes them.
///
/// *Write-through*: given its socket, the outbox writes what is offered
/// itself, at once and without blocking, whenever the writer thread is
/// idle, so a request does not wait for that thread to wake up. What the
/// socket does not take is left for the writer thread, whose writes may
/// wait. The write happens under the outbox's lock, and the writer thread
/// ``retire()``s the outbox under that lock before the socket may be
/// closed, so the descriptor is never written after the link let go of it.
final class WorkerOutbox: Sendable {
  private struct State {
    var frames: [[UInt8]] = []
    var head = 0
    /// The bytes of the frames waiting.
    var bytes = 0
    var isFinished = false
    /// The writer thread took frames and has not come back for more: it may
    /// be writing them, so the loop must not write through meanwhile.
    var writerIsBusy = false
    /// The writer thread has ended: nothing is written through any more.
    var isRetired = false
  }

  /// The most bytes that may wait.
  let limit: Int
  /// The socket written through to, if any.
  private let descriptor: Int32?
  private let state = Mutex(State())
  private let available = DispatchSemaphore(value: 0)

  init(limit: Int, writingThroughTo descriptor: Int32? = nil) {
    self.limit = limit
    self.descriptor = descriptor
  }

  /// Queues `frame` unless the frames waiting would pass the limit (an empty
  /// queue takes a frame of any size) or the outbox is finished; returns
  /// whether it was queued.
  func offer(_ frame: [UInt8]) -> Bool {
    let (queued, takeable) = state.withLock { state -> (Bool, Bool) in
      guard !state.isFinished else { return (false, false) }
      if state.bytes > 0 && state.bytes + frame.count > limit { return (false, false) }
      state.frames.append(frame)
      state.bytes += frame.count
      return (true, !writeThrough(&state))
    }
    if takeable { available.signal() }
    return queued
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

  /// The frames waiting, back to back, waiting for at least one; `nil` once
  /// finished and empty. Frames are added while the total stays within
  /// `maximumBytes` (the first is taken whatever its size), so that several
  /// frames cost one write.
  func next(upTo maximumBytes: Int) -> [UInt8]? {
    while true {
      let taken = state.withLock { state -> [UInt8]?? in
        // Called again: what the writer took last time is written.
        state.writerIsBusy = false
        if let bytes = Self.take(&state, upTo: maximumBytes) {
          state.writerIsBusy = true
          return .some(bytes)
        }
        return state.isFinished ? .some(nil) : nil
      }
      if let taken { return taken }
      available.wait()
    }
  }

  /// Takes the frames waiting, back to back, up to `maximumBytes` (the first
  /// whatever its size); nil when there are none.
  private static func take(_ state: inout State, upTo maximumBytes: Int) -> [UInt8]? {
    guard state.head < state.frames.count else { return nil }
    var bytes = state.frames[state.head]
    state.head += 1
    while state.head < state.frames.count && bytes.count + state.frames[state.head].count <= maximumBytes {
      bytes += state.frames[state.head]
      state.head += 1
    }
    state.bytes -= bytes.count
    if state.head == state.frames.count {
      state.frames.removeAll(keepingCapacity: true)
      state.head = 0
    }
    return bytes
  }

  /// Writes the frames waiting to the socket without blocking, if the
  /// writer thread is idle; returns whether nothing is left for it. What the
  /// socket did not take goes back to the front of the queue, a frame's
  /// remainder included, for the writer thread.
  private func writeThrough(_ state: inout State) -> Bool {
    guard let descriptor, !state.writerIsBusy, !state.isRetired else { return false }
    while let bytes = Self.take(&state, upTo: Self.writeBatchBytes) {
      let written = bytes.withUnsafeBytes {
        send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
      }
      if written == bytes.count { continue }
      // EAGAIN (the worker is not reading), or a failure the writer thread
      // will meet and end the link on. The rest of a frame begun must follow.
      let rest = Array(bytes[max(written, 0)...])
      state.frames.insert(rest, at: state.head)
      state.bytes += rest.count
      return false
    }
    return true
  }

  /// The most bytes a writer takes at once.
  static let writeBatchBytes = 256 * 1024
}
