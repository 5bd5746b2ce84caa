import Glibc
import JSON

/// The frames waiting to be written to one connection, bounded, so a client
/// that reads slowly can never make the daemon wait or grow without bound.
/// Confined to the store loop's thread, which offers frames and writes them.
///
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
/// durable, frames are *held*: those offered meanwhile wait until
/// ``release(batch:)`` (the batch is durable) or are thrown away by
/// ``discardHeld(from:)`` (it was refused), so no client ever sees a version
/// that a crash could take back. An outbox joins the open batch's
/// ``HoldGate`` when the first frame is offered to it, so a batch costs only
/// the clients it speaks to. Two batches may hold frames at once, one being
/// synced and one open, each from its own mark in the queue: the frames
/// before the first mark may go.
///
/// Frames that may go are written at once, as many as the socket takes,
/// several in one `sendmsg`, never waiting: what the socket does not take
/// waits for it to have room (``isBlocked``; the loop watches the socket for
/// writability and calls ``flush()``).
final class Outbox {
  /// What a waiting frame is, for the limits and for dropping.
  enum Kind {
    /// An answer: never refused, never dropped.
    case answer
    /// Unsolicited, and dropped for a snapshot when the subscriber lags.
    case droppable
    /// Unsolicited, and never dropped (a log record).
    case kept
  }

  /// What the connection is told of its outbox.
  enum Change {
    /// The socket took less than was ready: watch it for room.
    case blocked
    /// Everything ready was written.
    case unblocked
    /// Finished, and everything is written: the connection may close.
    case drained
    /// A write failed (the peer is gone): nothing more will be written.
    case failed(errno: Int32)
  }

  /// The most bytes of answers, and of unsolicited frames, that may wait.
  let limit: Int
  /// The socket written to.
  private let descriptor: Int32
  /// The batch this outbox holds its frames for, when one is open: the
  /// store's its connection is bound to (set at `hello`).
  var gate: HoldGate?
  /// The frames waiting, oldest first. A frame the outbox `gathers` into
  /// is an array it made and alone holds: small answers offered while it
  /// waits, in the same batch, are appended to it.
  private var frames: [(bytes: [UInt8], kind: Kind, gathers: Bool)] = []
  private var head = 0
  /// The bytes of `frames[head]` already written.
  private var headOffset = 0
  /// Where each batch that holds frames begins in `frames`, oldest first:
  /// the frames from the first mark on are held.
  private var marks: [(batch: UInt64, from: Int)] = []
  /// The bytes of the answers waiting, and of everything else.
  private var answerBytes = 0
  private var unsolicitedBytes = 0
  private(set) var isFinished = false
  /// The socket took less than it was offered; the loop says when it has room.
  private(set) var isBlocked = false
  /// A write failed: nothing is written any more.
  private(set) var hasFailed = false
  /// ``Change/drained`` was said.
  private var hasDrained = false
  /// When the socket last took bytes, or the outbox last had nothing to
  /// write: how long a client has not been reading.
  private(set) var lastTakenAt = ContinuousClock.now
  /// Called once fewer than `limit` bytes of answers wait (``whenRoom(_:)``).
  private var onRoom: (() -> Void)?
  /// Told when the outbox blocks, unblocks, drains or fails.
  var onChange: ((Change) -> Void)?

  init(limit: Int, writingTo descriptor: Int32, gate: HoldGate? = nil) {
    self.limit = limit
    self.descriptor = descriptor
    self.gate = gate
  }

  /// Queues an answer; it is never refused. Discarded after ``finish()``.
  func offerAnswer(_ frame: [UInt8]) {
    queue(frame, .answer)
  }

  /// Queues an answer of `count` bytes that `write` writes, as
  /// ``offerAnswer(_:)`` does, but after the answers that wait for the
  /// same batch, in one array: the acknowledgements of a batch's actions
  /// cost no array each, and leave in one piece.
  func offerAnswer(count: Int, _ write: (inout ByteWriter) -> Void) {
    guard !isFinished, !hasFailed else { return }
    noteHolding()
    let last = frames.count - 1
    if last >= head, last >= (marks.last?.from ?? 0), frames[last].gathers,
      frames[last].bytes.count + count <= Self.gatheredBytes
    {
      ByteWriter.append(count: count, to: &frames[last].bytes, write)
    } else {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(Swift.max(count, Self.gatheredCapacity))
      ByteWriter.append(count: count, to: &bytes, write)
      frames.append((bytes, .answer, true))
    }
    self.count(count, of: .answer)
    if marks.isEmpty && !isBlocked { flush() }
  }

  /// The most bytes of answers gathered in one array, and the room it is
  /// made with.
  static let gatheredBytes = 16 * 1024
  static let gatheredCapacity = 512

  /// Queues an unsolicited frame unless the unsolicited frames waiting would
  /// pass the limit (an empty queue takes a frame of any size); returns
  /// whether it was queued. Frames offered after ``finish()`` are discarded.
  @discardableResult
  func offer(_ frame: [UInt8], droppable: Bool) -> Bool {
    queue(frame, droppable ? .droppable : .kept)
  }

  @discardableResult
  private func queue(_ frame: [UInt8], _ kind: Kind) -> Bool {
    guard !isFinished, !hasFailed else { return false }
    if kind != .answer && unsolicitedBytes > 0 && unsolicitedBytes + frame.count > limit { return false }
    noteHolding()
    frames.append((frame, kind, false))
    count(frame.count, of: kind)
    if marks.isEmpty && !isBlocked { flush() }
    return true
  }

  /// Joins the open batch, if one holds frames and this outbox has not
  /// yet: what is queued from now on waits for it.
  private func noteHolding() {
    if let gate, gate.isHolding, marks.last?.batch != gate.batch {
      marks.append((gate.batch, frames.count))
      gate.held.append(self)
    }
  }

  private func count(_ bytes: Int, of kind: Kind) {
    if kind == .answer { answerBytes += bytes } else { unsolicitedBytes += bytes }
  }

  /// Whether `limit` bytes of answers or more wait: the client's next
  /// requests should wait until it has read them.
  var answersAreFull: Bool { answerBytes >= limit }

  /// Whether nothing waits to be written, held frames included.
  var isEmpty: Bool { head == frames.count }

  /// Calls `action` once fewer than `limit` bytes of answers wait: at once
  /// if that is so now, else when a write makes the room. A later call
  /// replaces an earlier one not yet made.
  func whenRoom(_ action: @escaping () -> Void) {
    onRoom = action
    callRoomIfDue()
  }

  private func callRoomIfDue() {
    guard let action = onRoom, answerBytes < limit else { return }
    onRoom = nil
    action()
  }

  /// Drops the droppable frames still waiting (but a frame begun); returns
  /// how many bytes it freed. The marks keep their places among the frames
  /// that remain.
  @discardableResult
  func dropDroppable() -> Int {
    var kept: [(bytes: [UInt8], kind: Kind, gathers: Bool)] = []
    var nextMark = 0
    var freed = 0
    for index in frames.indices[head...] {
      while nextMark < marks.count && marks[nextMark].from <= index {
        marks[nextMark].from = kept.count
        nextMark += 1
      }
      if frames[index].kind == .droppable && !(index == head && headOffset > 0) {
        freed += frames[index].bytes.count
      } else {
        kept.append(frames[index])
      }
    }
    while nextMark < marks.count {
      marks[nextMark].from = kept.count
      nextMark += 1
    }
    frames = kept
    head = 0
    unsolicitedBytes -= freed
    return freed
  }

  /// Holds the frames offered from now on for `batch` until
  /// ``release(batch:)`` or ``discardHeld(from:)``, as the gate does for
  /// an open batch; already holding for it, it changes nothing.
  func hold(batch: UInt64) {
    if marks.last?.batch != batch { marks.append((batch, frames.count)) }
  }

  /// `batch` is durable: lets its frames go once no earlier batch holds
  /// them, and writes what may go.
  func release(batch: UInt64) {
    guard let index = marks.firstIndex(where: { $0.batch == batch }) else { return }
    marks.remove(at: index)
    if index == 0 && !isBlocked { flush() }
  }

  /// Throws away the frames held for `batch` and every later batch (a
  /// refused batch takes the one reduced on top of it along); returns how
  /// many there were.
  @discardableResult
  func discardHeld(from batch: UInt64) -> Int {
    guard let index = marks.firstIndex(where: { $0.batch >= batch }) else { return 0 }
    let from = marks[index].from
    let discarded = frames[from...]
    for frame in discarded { count(-frame.bytes.count, of: frame.kind) }
    frames.removeSubrange(from...)
    marks.removeSubrange(index...)
    callRoomIfDue()
    drainIfDone()
    return discarded.count
  }

  /// No more frames will be offered; the connection closes once what waits
  /// is written (held frames once released).
  func finish() {
    guard !isFinished else { return }
    isFinished = true
    drainIfDone()
  }

  /// Says ``Change/drained`` once: finished, and everything written.
  private func drainIfDone() {
    guard isFinished, isEmpty, !hasFailed, !hasDrained else { return }
    hasDrained = true
    onChange?(.drained)
  }

  /// Writes the frames that may go, as many as the socket takes without
  /// waiting, and says what changed.
  func flush() {
    guard !hasFailed else { return }
    let wasBlocked = isBlocked
    let end = marks.first?.from ?? frames.count
    while head < end {
      let written = send(to: descriptor, upTo: end)
      if written < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN || errno == EWOULDBLOCK {
          isBlocked = true
          if !wasBlocked {
            // The write timeout counts from when the client stopped making
            // room, not from its last read, however long ago that was.
            lastTakenAt = .now
            onChange?(.blocked)
          }
          return
        }
        fail(errno)
        return
      }
      lastTakenAt = .now
      consume(written)
    }
    lastTakenAt = .now
    isBlocked = false
    if head == frames.count {
      frames.removeAll(keepingCapacity: frames.count <= 64)
      head = 0
      // Every mark was at the end: they stay there.
      for index in marks.indices { marks[index].from = 0 }
    }
    callRoomIfDue()
    if wasBlocked { onChange?(.unblocked) }
    drainIfDone()
  }

  /// Sends frames `head..<end` (from `headOffset` in the first) in one
  /// `sendmsg`, at most ``maximumFramesPerWrite`` of them; returns what it
  /// returned.
  private func send(to descriptor: Int32, upTo end: Int) -> Int {
    let count = min(end - head, Self.maximumFramesPerWrite)
    return withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
      // The frames' storage stays put for the call: `frames` is not
      // changed while the pointers are in use.
      Self.withPinnedBytes(of: frames, from: head, count: count) { buffers in
        for (index, buffer) in buffers.enumerated() {
          let skip = index == 0 ? headOffset : 0
          vectors[index] = iovec(
            iov_base: UnsafeMutableRawPointer(mutating: buffer.baseAddress.map { $0 + skip }),
            iov_len: buffer.count - skip)
        }
        var message = msghdr()
        message.msg_iov = vectors.baseAddress
        message.msg_iovlen = count
        return Glibc.sendmsg(descriptor, &message, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
      }
    }
  }

  /// Calls `body` with the bytes of `count` frames from `start`, each
  /// pinned for the call.
  private static func withPinnedBytes<Result>(
    of frames: [(bytes: [UInt8], kind: Kind, gathers: Bool)], from start: Int, count: Int,
    _ body: ([UnsafeRawBufferPointer]) -> Result
  ) -> Result {
    var buffers: [UnsafeRawBufferPointer] = []
    buffers.reserveCapacity(count)
    func pin(_ index: Int) -> Result {
      guard index < start + count else { return body(buffers) }
      return frames[index].bytes.withUnsafeBytes { raw in
        buffers.append(raw)
        return pin(index + 1)
      }
    }
    return pin(start)
  }

  /// Takes `written` bytes off the front of the queue.
  private func consume(_ written: Int) {
    var left = written
    while left > 0 {
      let remaining = frames[head].bytes.count - headOffset
      if left < remaining {
        headOffset += left
        count(-left, of: frames[head].kind)
        return
      }
      count(-remaining, of: frames[head].kind)
      left -= remaining
      frames[head].bytes = []
      head += 1
      headOffset = 0
    }
  }

  /// The connection is closed: everything waiting is dropped and nothing
  /// is written any more (the descriptor number may already be another
  /// socket's).
  func abandon() {
    guard !hasFailed else { return }
    hasFailed = true
    frames.removeAll()
    head = 0
    headOffset = 0
    marks.removeAll()
    answerBytes = 0
    unsolicitedBytes = 0
    onRoom = nil
  }

  private func fail(_ code: Int32) {
    abandon()
    onChange?(.failed(errno: code))
  }

  /// The most frames one `sendmsg` takes (well under the kernel's
  /// `UIO_MAXIOV` of 1024).
  static let maximumFramesPerWrite = 64
}

/// The open batch's hold on the outboxes it speaks to: while a batch is
/// open, an outbox offered a frame holds it from there and joins ``held``,
/// so that the batch releases (or a refusal discards) exactly those.
final class HoldGate {
  /// Whether a batch is open.
  var isHolding = false
  /// The open batch's number: batches are numbered in the order they open.
  var batch: UInt64 = 0
  /// The outboxes holding frames for the open batch.
  var held: [Outbox] = []
}
