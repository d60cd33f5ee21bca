import Foundation
import Testing
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

@Suite("Garbage collection", .offThePool)
struct GarbageCollectorTests {
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
