import Foundation
import Testing
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// Moving a state of before issue 21 (`<out>/.thumbify`) out of the served tree.
@Suite("Moving an old state directory", .offThePool)
struct StateMigrationTests {
  /// An output directory `<root>/out` whose state is still in `<out>/.thumbify`, holding an
  /// unfinished run (so a usable copy is recognised by resuming it) and a spooled list.
  struct Fixture {
    let root: String
    let layout: OutputLayout
    let run: Int64

    init() throws {
      root = makeTemporaryDirectory("migration")
      layout = OutputLayout(root + "/out", stateDirectory: root + "/state/thumbify/out-0123456789abcdef")
      try FileManager.default.createDirectory(
        atPath: layout.legacyStateDirectory, withIntermediateDirectories: true)
      let old = OutputLayout(layout.directory, stateDirectory: layout.legacyStateDirectory)
      run = try StateStore(path: old.stateDatabase).beginRun(options: "v1").id
      try "http://a.test/\n".write(toFile: old.standardInputSpool, atomically: true, encoding: .utf8)
      _ = try RunLock(old)
    }

    /// Whether the state at `directory` is complete: its unfinished run resumes, its list is there.
    func isComplete(_ directory: String) -> Bool {
      let state = OutputLayout(layout.directory, stateDirectory: directory)
      guard let store = try? StateStore(path: state.stateDatabase),
        let resumed = try? store.beginRun(options: "v1")
      else { return false }
      return resumed.isResumed && resumed.id == run
        && (try? String(contentsOfFile: state.standardInputSpool, encoding: .utf8)) == "http://a.test/\n"
    }

    var oldExists: Bool { FileManager.default.fileExists(atPath: layout.legacyStateDirectory) }
    var newExists: Bool { FileManager.default.fileExists(atPath: layout.stateDatabase) }

    /// Whatever is in the state's parent directory, but the state itself (leftover copies).
    var leftovers: [String] {
      let parent = (layout.stateDirectory as NSString).deletingLastPathComponent
      let name = (layout.stateDirectory as NSString).lastPathComponent
      return ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []).filter { $0 != name }
    }
  }

  @Test func oneFileSystemRenamesTheWholeDirectory() throws {
    let fixture = try Fixture()
    defer { removeDirectory(fixture.root) }
    let outcome = try StateMigration.run(fixture.layout)
    #expect(
      outcome
        == .moved(
          from: fixture.layout.legacyStateDirectory, to: fixture.layout.stateDirectory, isCopied: false))
    #expect(
      outcome.description
        == "Moved the crawl state from '\(fixture.root)/out/.thumbify' to '\(fixture.layout.stateDirectory)'."
    )
    #expect(!fixture.oldExists)
    #expect(fixture.isComplete(fixture.layout.stateDirectory))
    #expect(fixture.leftovers.isEmpty)
    // A second run finds nothing to move.
    #expect(try StateMigration.run(fixture.layout) == .nothing)
  }

  @Test func acrossFileSystemsItCopiesThenRemovesTheOld() throws {
    let fixture = try Fixture()
    defer { removeDirectory(fixture.root) }
    let outcome = try StateMigration.run(fixture.layout, forceCopy: true, stoppingAfter: nil)
    #expect(
      outcome
        == .moved(
          from: fixture.layout.legacyStateDirectory, to: fixture.layout.stateDirectory, isCopied: true))
    #expect(!fixture.oldExists)
    #expect(fixture.isComplete(fixture.layout.stateDirectory))
    #expect(!FileManager.default.fileExists(atPath: fixture.layout.migrationRecord))
    #expect(fixture.leftovers.isEmpty)
  }

  /// A kill at each step of the copy leaves the old or the new state complete, and the next run ends
  /// with the new one complete and nothing else left.
  @Test(arguments: [
    StateMigration.Step.copiedOneFile, .copied, .renamed, .removedOneFile,
  ])
  func aKillAtAnyStepLeavesOneCompleteStateAndTheNextRunFinishes(step: StateMigration.Step) throws {
    let fixture = try Fixture()
    defer { removeDirectory(fixture.root) }
    #expect(try StateMigration.run(fixture.layout, forceCopy: true, stoppingAfter: step) == nil)
    if fixture.newExists {
      #expect(fixture.isComplete(fixture.layout.stateDirectory))
    } else {
      #expect(fixture.isComplete(fixture.layout.legacyStateDirectory))
    }
    // (isComplete resumed the run, which leaves it unfinished.)
    let outcome = try StateMigration.run(fixture.layout)
    if step == .renamed || step == .removedOneFile {
      #expect(outcome == .finishedRemoval(of: fixture.layout.legacyStateDirectory))
    } else {
      #expect(
        outcome
          == .moved(
            from: fixture.layout.legacyStateDirectory, to: fixture.layout.stateDirectory, isCopied: false))
    }
    #expect(!fixture.oldExists)
    #expect(fixture.isComplete(fixture.layout.stateDirectory))
    #expect(!FileManager.default.fileExists(atPath: fixture.layout.migrationRecord))
    #expect(fixture.leftovers.isEmpty)
  }

  @Test func anExistingNewStateWinsAndTheOldIsLeftWithAWarning() throws {
    let fixture = try Fixture()
    defer { removeDirectory(fixture.root) }
    try FileManager.default.createDirectory(
      atPath: fixture.layout.stateDirectory, withIntermediateDirectories: true)
    let newRun = try StateStore(path: fixture.layout.stateDatabase).beginRun(options: "v2").id
    let outcome = try StateMigration.run(fixture.layout)
    #expect(
      outcome == .keptBoth(old: fixture.layout.legacyStateDirectory, new: fixture.layout.stateDirectory))
    #expect(outcome.isWarning)
    #expect(outcome.description.hasPrefix("Warning: the old crawl state '\(fixture.root)/out/.thumbify'"))
    #expect(fixture.isComplete(fixture.layout.legacyStateDirectory))
    let kept = try StateStore(path: fixture.layout.stateDatabase).beginRun(options: "v2")
    #expect(kept.isResumed && kept.id == newRun)
  }

  @Test func aNewStateDirectoryWithoutADatabaseIsReplaced() throws {
    // A run that took the new lock and stopped before opening the state left only its lock.
    let fixture = try Fixture()
    defer { removeDirectory(fixture.root) }
    _ = try RunLock(fixture.layout)
    #expect(try StateMigration.run(fixture.layout) != .nothing)
    #expect(!fixture.oldExists)
    #expect(fixture.isComplete(fixture.layout.stateDirectory))
  }

  @Test func aRunningOlderThumbifyKeepsItsStateAndTheRunIsRefused() throws {
    let fixture = try Fixture()
    defer { removeDirectory(fixture.root) }
    // An older thumbify holds its lock in the old directory.
    let old = OutputLayout(fixture.layout.directory, stateDirectory: fixture.layout.legacyStateDirectory)
    let lock = try RunLock(old)
    #expect(throws: StoreError.locked(directory: fixture.layout.directory, pid: getpid())) {
      try StateMigration.run(fixture.layout)
    }
    withExtendedLifetime(lock) {}
    #expect(fixture.oldExists)
    #expect(!FileManager.default.fileExists(atPath: fixture.layout.stateDirectory))
  }
}
