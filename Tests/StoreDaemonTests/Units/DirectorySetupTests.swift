import Glibc
import Testing
import Wire

@testable import StoreDaemon

/// `DirectorySetup.checkSafeForSocket`: which socket directories the daemon
/// refuses, because someone else could replace the socket in them.
@Suite struct DirectorySetupTests {
  /// Runs `body` with a fresh directory under /tmp with `mode`; removes it
  /// afterwards, with the entries `body` returns.
  private func withScratch(_ name: String, mode: mode_t, _ body: (String) throws -> [String]) rethrows {
    let path = "/tmp/sd-dirsetup-\(getpid())-\(name)"
    mkdir(path, mode)
    chmod(path, mode)
    var entries: [String] = []
    defer {
      for entry in entries { unlink(entry) }
      rmdir(path)
    }
    entries = try body(path)
  }

  @Test func aPrivateDirectoryOfThisUserIsAccepted() throws {
    try withScratch("private", mode: 0o700) { path in
      try DirectorySetup.checkSafeForSocket(path)
      return []
    }
  }

  @Test func aStickyDirectoryOthersMayWriteToIsAccepted() throws {
    try withScratch("sticky", mode: 0o1777) { path in
      try DirectorySetup.checkSafeForSocket(path)
      return []
    }
  }

  @Test func aDirectoryOthersMayWriteToIsRefused() {
    withScratch("open", mode: 0o777) { path in
      #expect {
        try DirectorySetup.checkSafeForSocket(path)
      } throws: { error in
        "\(error)".contains("others may write to it")
      }
      return []
    }
  }

  /// Whoever may write to a directory above could rename the one below.
  @Test func aDirectoryBelowOneOthersMayWriteToIsRefusedNamingIt() {
    withScratch("above", mode: 0o777) { path in
      mkdir(path + "/below", 0o700)
      defer { rmdir(path + "/below") }
      #expect {
        try DirectorySetup.checkSafeForSocket(path + "/below")
      } throws: { error in
        "\(error)".contains("\(path), above it: others may write to it (mode 0777")
      }
      return []
    }
  }

  /// A symbolic link above is followed, and the directories it leads to are
  /// checked too.
  @Test func theDirectoriesASymbolicLinkAboveLeadsToAreChecked() {
    withScratch("open-target", mode: 0o777) { path in
      mkdir(path + "/below", 0o700)
      let link = path + "-link"
      symlink(path, link)
      defer { rmdir(path + "/below") }
      #expect {
        try DirectorySetup.checkSafeForSocket(link + "/below")
      } throws: { error in
        "\(error)".contains("\(path), above it: others may write to it")
      }
      return [link]
    }
  }

  @Test func aSymbolicLinkIsRefusedEvenToASafeDirectory() {
    withScratch("target", mode: 0o700) { path in
      let link = path + "-link"
      symlink(path, link)
      #expect {
        try DirectorySetup.checkSafeForSocket(link)
      } throws: { error in
        "\(error)".contains("it is not a directory (a symbolic link?)")
      }
      return [link]
    }
  }

  /// Needs root, to give the directory to another user.
  @Test(.enabled(if: geteuid() == 0))
  func aDirectoryOfAnotherUserIsRefused() {
    withScratch("foreign", mode: 0o700) { path in
      chown(path, 65534, 65534)
      #expect {
        try DirectorySetup.checkSafeForSocket(path)
      } throws: { error in
        "\(error)".contains("it belongs to nobody (uid 65534), mode 0700; only this user (root (uid 0)) or root")
      }
      return []
    }
  }
}
