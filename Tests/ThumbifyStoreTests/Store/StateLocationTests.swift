import Foundation
import Testing
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystem
import ThumbifySystemTestSupport

/// The default state directory (issue 21): outside the output directory and its parent, one per
/// output directory however it is spelled.
@Suite("The default state directory", .offThePool)
struct StateLocationTests {
  @Test func xdgStateHomeHoldsItNamedByBasenameAndPathDigest() throws {
    let root = makeTemporaryDirectory("location")
    defer { removeDirectory(root) }
    let out = root + "/site-out"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let pointer = try #require(realpath(out, nil))
    defer { free(pointer) }
    let resolved = String(cString: pointer)
    let state = try OutputLayout.defaultStateDirectory(
      for: out, environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/u"])
    let digest = SHA256Digest.hex(of: Array(resolved.utf8)).prefix(16)
    #expect(state == "/x/state/thumbify/site-out-\(digest)")
    #expect(!state.hasPrefix(root))
  }

  @Test func homeIsUsedWhenXDGStateHomeIsUnsetOrRelative() throws {
    for environment in [["HOME": "/home/u"], ["HOME": "/home/u", "XDG_STATE_HOME": "relative/dir"]] {
      let state = try OutputLayout.defaultStateDirectory(for: "/srv/www/out", environment: environment)
      #expect(state.hasPrefix("/home/u/.local/state/thumbify/out-"))
      #expect(state.count == "/home/u/.local/state/thumbify/out-".count + 16)
    }
  }

  @Test func withoutXDGStateHomeOrHomeItAsksForTheStateOption() {
    #expect(
      throws: StoreError.io(
        path: "out", operation: "find a state directory for",
        message: "neither XDG_STATE_HOME nor HOME is set; give one with --state <dir>")
    ) {
      try OutputLayout.defaultStateDirectory(for: "out", environment: [:])
    }
  }

  @Test func everySpellingOfOneDirectoryGetsOneStateAndOthersAnother() throws {
    let root = makeTemporaryDirectory("location")
    defer { removeDirectory(root) }
    let out = root + "/out"
    let environment = ["XDG_STATE_HOME": "/x"]
    // Resolved before the directory exists (a crawl's first run creates it) and after.
    let before = try OutputLayout.defaultStateDirectory(for: out + "/", environment: environment)
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: out)
    for spelling in [out, out + "/", root + "/./out", root + "/link", root + "/link/../out"] {
      #expect(try OutputLayout.defaultStateDirectory(for: spelling, environment: environment) == before)
    }
    try FileManager.default.createDirectory(atPath: root + "/b/out", withIntermediateDirectories: true)
    let other = try OutputLayout.defaultStateDirectory(for: root + "/b/out", environment: environment)
    #expect(other != before)
    #expect(other.hasPrefix("/x/thumbify/out-"))
  }

  @Test func anExplicitStateDirectoryWins() throws {
    let layout = try OutputLayout.resolving("out", stateDirectory: "/var/lib/t/", environment: [:])
    #expect(layout.stateDirectory == "/var/lib/t")
    #expect(layout.lock == "/var/lib/t/lock")
  }
}
