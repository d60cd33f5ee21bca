import Foundation
import Testing
import ThumbifyExtracting
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

/// The store-level pieces of `thumbify merge` and `crawl --baseline` (issue 23): reading a record's
/// normalized URL from its bytes, bringing blobs across directories, taking in another state database.
@Suite("Merging stores", .offThePool)
struct ShardMergeStoreTests {
  @Test func theTopLevelMemberIsReadAndNotANestedOneOfTheSameName() throws {
    // Given a record whose nested objects repeat the member's name, and one whose value has escapes
    let nested = Array(
      #"{"fetch":{"normalizedURL":"http://inner/"},"normalizedURL":"http://a.test/x","outcome":"ok"}"#.utf8)
    let escaped = Array(
      #"{"metadata":{"title":"\"normalizedURL\":"},"normalizedURL":"http://a.test/\u00e9"}"#.utf8)
    // When the members are read
    // Then the top-level ones are found, escapes decoded
    #expect(ManifestCursor.stringMember("normalizedURL", of: nested) == "http://a.test/x")
    #expect(ManifestCursor.stringMember("outcome", of: nested) == "ok")
    #expect(ManifestCursor.stringMember("normalizedURL", of: escaped) == "http://a.test/é")
    #expect(ManifestCursor.stringMember("missing", of: nested) == nil)
  }

  @Test func blobsAreLinkedOnceAndABlobNotMatchingItsNameIsLeftOut() throws {
    let root = makeTemporaryDirectory("blob-union")
    defer { removeDirectory(root) }
    // Given a source directory with two blobs, one of which does not hash to its name, and a stray file
    let good = try BlobStore(root: root + "/a").store(Array("good bytes".utf8), fileExtension: "webp")
    let bad = try BlobStore(root: root + "/a").store(Array("bad bytes".utf8), fileExtension: "webp")
    try Data("tampered".utf8).write(to: URL(fileURLWithPath: root + "/a/" + bad.path))
    try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/a/blobs/stray.txt"))
    let union = BlobUnion(target: root + "/out")

    // When the source is united into the target twice
    let first = try union.unite(from: root + "/a")
    let second = try union.unite(from: root + "/a")

    // Then the good blob is hard-linked the first time and present the second; the bad one left out
    #expect(
      first.linked == 1 && first.rejected == 1 && first.rejectedPaths == [bad.path], "\(first) \(second)")
    #expect(second.linked == 0 && second.present == 1)
    var source = stat()
    var target = stat()
    #expect(stat(root + "/a/" + good.path, &source) == 0 && stat(root + "/out/" + good.path, &target) == 0)
    #expect(source.st_ino == target.st_ino)
    #expect(access(root + "/out/" + bad.path, F_OK) != 0)
  }

  @Test func aMergeTakesTheOwnersPagesAndABaselineOnlyFillsGaps() throws {
    let root = makeTemporaryDirectory("state-import")
    defer { removeDirectory(root) }
    func record(_ url: String, _ title: String) -> CrawlRecord {
      var metadata = PageMetadata()
      metadata.title = title
      return CrawlRecord(originalURL: url, normalizedURL: url, outcome: .ok, metadata: metadata)
    }
    // Given a source state knowing a.test (as "new") and b.test, and a target knowing a.test as "old"
    let source = try StateStore(path: root + "/source/state.sqlite")
    for url in ["http://a.test/", "http://b.test/"] {
      try source.savePage(
        url, record: record(url, "new"), run: 7, isGood: true, etag: "\"e\"", lastModified: nil, fetchedAt: 1)
    }
    try source.saveImage(
      "http://a.test/i.png", state: .init(etag: "\"i\"", sourceSHA256: "ab", run: 7, fetchedAt: 2))
    let target = try StateStore(path: root + "/target/state.sqlite")
    try target.savePage(
      "http://a.test/", record: record("http://a.test/", "old"), run: 1, isGood: true, etag: nil,
      lastModified: nil, fetchedAt: 0)

    // When a baseline import takes only what is missing
    let baseline = try target.importState(
      from: root + "/source/state.sqlite", pages: .missing(isWanted: { _ in true }))

    // Then a.test keeps its own row, b.test comes in outside any run, with the image's validators
    #expect(baseline.pages == 1 && baseline.images == 1)
    #expect(try target.page("http://a.test/").good?.metadata?.title == "old")
    let taken = try target.page("http://b.test/")
    #expect(taken.good?.metadata?.title == "new" && taken.etag == "\"e\"" && taken.run == nil)
    #expect(try target.image("http://a.test/i.png").etag == "\"i\"")

    // When a merge takes the pages its shard owns, twice
    let merged = try target.importState(
      from: root + "/source/state.sqlite", pages: .replacingOwned(isOwned: { $0 == "http://a.test/" }))
    let again = try target.importState(
      from: root + "/source/state.sqlite", pages: .replacingOwned(isOwned: { $0 == "http://a.test/" }))

    // Then the owner's row replaces the old one, and the second import writes nothing
    #expect(merged.pages == 1)
    #expect(try target.page("http://a.test/").good?.metadata?.title == "new")
    #expect(again == StateStore.ImportCounts())
  }
}
