import ComposableCore
import Foundation
import Platform
import Testing

@testable import StoreDaemon

/// The greeter with a kind of its own, served by a program it declares.
enum PrintingGreeter: HostedApp {
  static let name = "printing-greeter"
  static let version = "1.0.0"
  static func makeRoot() -> Greeter.Root { Greeter.Root() }
  static var initialState: Greeter.Root.State { Greeter.Root.State() }
  static let workers = [AppWorker(kind: "print", executable: "greeter-print")]
}

/// `--worker KIND=PATH`: another program for a kind the app declares (a
/// checkout, a test), checked against the app's kinds.
@Suite struct AppWorkerOptionTests {
  @Test func aKindTheAppDeclaresTakesAnotherProgram() throws {
    let options = try DaemonOptions.parse(
      ["--state-dir", "/tmp/x", "--worker", "print=/opt/print/greeter-print"], environment: [:],
      app: PrintingGreeter.self)
    #expect(options.appWorkerPrograms == ["print": "/opt/print/greeter-print"])
    // A relative path is the current directory's, as any path on a command line.
    let relative = try DaemonOptions.parse(
      ["--state-dir", "/tmp/x", "--worker", "print=bin/greeter-print"], environment: [:], app: PrintingGreeter.self)
    #expect(relative.appWorkerPrograms == ["print": FileManager.default.currentDirectoryPath + "/bin/greeter-print"])
  }

  @Test(arguments: [
    (
      ["--worker", "mail=/x"],
      "--worker takes KIND=PATH, where KIND is one of the app's own kinds (print), got 'mail=/x'"
    ),
    (
      ["--worker", "print="], "--worker takes KIND=PATH, where KIND is one of the app's own kinds (print), got 'print='"
    ),
    (["--worker", "print"], "--worker takes KIND=PATH, where KIND is one of the app's own kinds (print), got 'print'"),
    (["--worker", "print=/a", "--worker", "print=/b"], "--worker names the kind 'print' twice; give each kind once"),
  ])
  func aKindTheAppDoesNotDeclareIsAUsageError(arguments: [String], message: String) {
    #expect {
      try DaemonOptions.parse(["--state-dir", "/tmp/x"] + arguments, environment: [:], app: PrintingGreeter.self)
    } throws: { error in
      "\(error)" == message
    }
  }

  @Test func anAppWithoutKindsOfItsOwnTakesNone() {
    #expect {
      try DaemonOptions.parse(["--state-dir", "/tmp/x", "--worker", "print=/x"], environment: [:], app: Greeter.self)
    } throws: { error in
      "\(error)" == "--worker takes KIND=PATH for a kind of the app's own, and this app declares none, got 'print=/x'"
    }
  }

  @Test func theHelpListsTheOptionOnlyForAnAppWithKindsOfItsOwn() {
    #expect(
      DaemonOptions.usage(for: PrintingGreeter.self).contains(
        """
          --worker KIND=PATH     the program serving the app's own kind KIND instead of the one it
                                 declares (print=greeter-print, beside printing-greeter)
          --worker-timeout S
        """))
    #expect(!DaemonOptions.usage(for: Greeter.self).contains("--worker KIND=PATH"))
  }
}
