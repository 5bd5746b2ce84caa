import Wire

/// What the store loop has read from one worker's socket: the frames still
/// incomplete, and whether the worker has said `ready` yet. Confined to the
/// loop's thread, in the worker's ``WorkerSlot``.
struct WorkerInput {
  private var decoder = FrameDecoder(maximum: WorkerProtocol.maximumFrame)
  private var isGreeted = false

  /// Reads once from `link`, whose socket `poll` found ready, and returns the
  /// worker's events in order. `isOpen` is false once the worker closed its
  /// socket, the read failed, or the worker broke the protocol (it is killed
  /// then): the loop reads no more and releases the link.
  mutating func read(from link: WorkerLink) -> (events: [WorkerEvent], isOpen: Bool) {
    let bytes: [UInt8]
    do {
      bytes = try link.read()
    } catch {
      Log.warning("\(link.kind.rawValue) worker (pid \(link.pid)): \(error)")
      return ([], false)
    }
    if bytes.isEmpty { return ([], false) }
    let events = read(bytes, from: link)
    return (events.events, events.isValid)
  }

  /// The worker's events in `bytes`, read from `link`, in order; `isValid`
  /// is false once the worker broke the protocol (it is killed then).
  mutating func read(_ bytes: [UInt8], from link: WorkerLink) -> (events: [WorkerEvent], isValid: Bool) {
    decoder.append(bytes)
    var events: [WorkerEvent] = []
    do {
      while let payload = try decoder.nextFrame() {
        let event = try WorkerEvent(payload: payload)
        if !isGreeted {
          guard case .ready(let kind, _, let version) = event, kind == link.kind, version == WorkerProtocol.version
          else {
            throw WorkerMessageError(
              "expected 'ready' for a \(link.kind.rawValue) worker speaking protocol \(WorkerProtocol.version), got \(event)"
            )
          }
          isGreeted = true
        }
        events.append(event)
      }
    } catch {
      Log.error("\(link.kind.rawValue) worker (pid \(link.pid)) broke the worker protocol: \(error); killing it")
      link.kill()
      return (events, false)
    }
    return (events, true)
  }
}
