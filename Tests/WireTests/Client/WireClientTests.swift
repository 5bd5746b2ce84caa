import Testing
import Wire

/// A client made from a list of sockets (`--socket A,B`, `TCA_SOCKET`).
@Suite struct WireClientTests {
  /// A list of no socket is refused with what was expected, never a trap.
  @Test func anEmptyListOfSocketsIsRefused() {
    #expect {
      try WireClient(paths: [], clientName: "test")
    } throws: { error in
      guard let error = error as? ClientError, case .allSocketsFailed(let summary, let failures) = error else {
        return false
      }
      return failures.isEmpty && summary == "no socket to connect to: expected at least one socket path"
        && error.description == summary
    }
  }
}
