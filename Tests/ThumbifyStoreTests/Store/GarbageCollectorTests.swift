import Foundation
import Testing

@testable import Thumbify
@testable import ThumbifyExtracting
@testable import ThumbifyFetching
@testable import ThumbifyImaging
@testable import ThumbifyStore
@testable import ThumbifySystem
@testable import ThumbifyTestSupport

@Suite("Garbage collection", .offThePool)
struct GarbageCollectorTests {
  @Test func removesOnlyOldUnreferencedBlobs() async throws {
    let directory = makeTemporaryDirectory("gc")
    defer { removeDirectory(directory) }
    // Given a crawl whose manifest references some blobs
    let fetcher = StubFetcher()
    fetcher.serve("http://site.test/a", "image: http://site.test/a.jpg")
    fetcher.serve("http://site.test/a.jpg", bytes: Array("a".utf8))
    let job = CrawlJob(
      layout: testLayout(directory), configuration: CrawlConfiguration(), fetcher: fetcher,
      extractor: StubExtractor(), thumbnailer: StubThumbnailer(root: directory))
    _ = try await job.run(openList: { URLListReader(bytes: Array("http://site.test/a\n".utf8)) })
    let referenced = blobFiles(directory)
    #expect(referenced.count == 2)
    // and two orphans, one old and one young, and an old leftover temp file
    let store = BlobStore(root: directory)
    let old = try store.store(Array("orphan-old".utf8), fileExtension: "webp")
    let young = try store.store(Array("orphan-young".utf8), fileExtension: "webp")
    let temp = directory + "/" + old.path.replacingOccurrences(of: old.sha256 + ".webp", with: ".tmp-abc")
    _ = FileManager.default.createFile(atPath: temp, contents: Data("torn".utf8))
    let hourAgo = Date().addingTimeInterval(-3_600)
    for path in [directory + "/" + old.path, temp] {
      try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: path)
    }
    for path in referenced {
      try FileManager.default.setAttributes(
        [.modificationDate: hourAgo], ofItemAtPath: directory + "/" + path)
    }
    // When gc runs with a 10-minute grace period
    let report = try GarbageCollector(layout: testLayout(directory), grace: 600).collect()
    // Then only the old orphan and the temp file are gone
    #expect(report.removed == 2)
    #expect(report.kept == 2)
    #expect(report.keptYoung == 1)
    #expect(blobFiles(directory) == referenced.union([young.path]))
    #expect(!FileManager.default.fileExists(atPath: temp))
  }

  @Test func refusesWhileACrawlHoldsTheDirectory() throws {
    let directory = makeTemporaryDirectory("gc")
    defer { removeDirectory(directory) }
    let lock = try RunLock(testLayout(directory))
    #expect(throws: StoreError.locked(directory: directory, pid: getpid())) {
      try GarbageCollector(layout: testLayout(directory)).collect()
    }
    withExtendedLifetime(lock) {}
  }

  @Test func refusesToCollectWhenTheManifestCannotBeRead() throws {
    let directory = makeTemporaryDirectory("gc")
    defer { removeDirectory(directory) }
    // Given an old blob and a manifest with a corrupt line (which might have referenced it)
    let blob = try BlobStore(root: directory).store(Array("maybe-referenced".utf8), fileExtension: "webp")
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-86_400)], ofItemAtPath: directory + "/" + blob.path)
    _ = FileManager.default.createFile(
      atPath: directory + "/manifest.jsonl", contents: Data("{\"schema\": 1, \"url\": \n".utf8))
    // When gc runs, then it refuses, and the blob is still there
    #expect(throws: StoreError.self) {
      try GarbageCollector(layout: testLayout(directory), grace: 0).collect()
    }
    #expect(blobFiles(directory) == [blob.path])
  }

  @Test func saysWhyTheManifestCannotBeReadOnce() throws {
    let directory = makeTemporaryDirectory("gc")
    defer { removeDirectory(directory) }
    let manifest = directory + "/manifest.jsonl"
    _ = FileManager.default.createFile(atPath: manifest, contents: Data("{\"schema\": 1, \"url\": \n".utf8))
    let error = #expect(throws: StoreError.self) {
      try GarbageCollector(layout: testLayout(directory), grace: 0).collect()
    }
    // The reader's own error, not wrapped in a second "Could not read '…':".
    #expect(error?.code == "malformedManifest")
    #expect(
      error?.description.hasPrefix("Line 1 of '\(manifest)' is not a crawl record") == true,
      "\(String(describing: error))")
  }
}
