import Glibc

/// Starts work on a thread of its own: a POSIX thread, detached.
///
/// The daemon's threads (the store loop, the accept loop, each connection's
/// reader and writer, each worker link's, the journal's syncer) are all it
/// would need from Foundation beyond what FoundationEssentials has. Starting
/// them here keeps libFoundation and its ICU data, several MiB of resident
/// memory, out of the daemon's process (docs/BENCHMARKS.md, figure h).
public enum DetachedThread {
  /// Runs `body` on a new detached thread; `name` says what it is for in
  /// the error if it cannot start.
  ///
  /// - Throws: ``ThreadStartError`` when the process or the system is out of
  ///   threads or memory; `body` is then not run. What to do without the
  ///   thread is the caller's to decide: a connection is refused, the daemon
  ///   cannot start without its store loop.
  public static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(ThreadStartError) {
    let context = Unmanaged.passRetained(Context(body: body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
      &thread, nil,
      { raw in
        // Balances the passRetained above; `raw` is that pointer, never nil.
        // invariant: pthread_create passes the pointer given to it, never nil
        let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
        context.body()
        return nil
      }, context)
    guard result == 0 else {
      Unmanaged<Context>.fromOpaque(context).release()
      throw ThreadStartError(name: name, errno: result)
    }
    pthread_detach(thread)
  }

  private final class Context: Sendable {
    let body: @Sendable () -> Void

    init(body: @escaping @Sendable () -> Void) { self.body = body }
  }
}
