import Foundation
import Testing
import Thumbify
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport
import ThumbifyTestSupport

/// The served tree never keeps a temporary file (issue 21): a write killed between linking its
/// temporary name and renaming it (`FileSystem.writeAtomically`: `thumb`'s manifest, the report)
/// leaves `<out>/.tmp-*`, which the next run holding the lock removes once it is old.
@Suite("Temporary files left in the output directory")
struct LeftoverTemporaryTests {
  /// `<out>` with an old leftover temporary file and a fresh one (a write that may be in flight).
  static func plant(in out: String) throws -> (old: String, fresh: String) {
    let old = out + "/.tmp-k1ll3d"
    let fresh = out + "/.tmp-fr35h"
    for path in [old, fresh] {
      #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
    }
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-3_600)], ofItemAtPath: old)
    return (old, fresh)
  }

  @Test func aCrawlRemovesOldTemporaryFilesAndKeepsFreshOnes() async throws {
    let out = makeTemporaryDirectory("leftover")
    defer { removeDirectory(out) }
    let (old, fresh) = try Self.plant(in: out)
    let fetcher = StubFetcher()
    fetcher.serve("http://site.test/a", "title: A")
    let job = CrawlJob(
      layout: testLayout(out), configuration: CrawlConfiguration(), fetcher: fetcher,
      extractor: StubExtractor(),
      thumbnailer: StubThumbnailer(root: out))
    _ = try await job.run(openList: { URLListReader(bytes: Array("http://site.test/a\n".utf8)) })
    #expect(!FileManager.default.fileExists(atPath: old))
    #expect(FileManager.default.fileExists(atPath: fresh))
  }

  @Test func gcRemovesThemToo() throws {
    let out = makeTemporaryDirectory("leftover")
    defer { removeDirectory(out) }
    let (old, fresh) = try Self.plant(in: out)
    _ = try GarbageCollector(layout: testLayout(out)).collect()
    #expect(!FileManager.default.fileExists(atPath: old))
    #expect(FileManager.default.fileExists(atPath: fresh))
  }
}
