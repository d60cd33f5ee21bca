import Foundation
import Testing
import ThumbifyImagingTestSupport
import ThumbifyStore
import ThumbifySystemTestSupport

@Suite("Blob store", .offThePool)
struct BlobStoreTests {
  @Test func namesBlobsByTheirSHA256() throws {
    let root = try Fixtures.temporaryDirectory()
    let blob = try BlobStore(root: root).store(Array("abc".utf8), fileExtension: "webp")
    let digest = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    #expect(blob.sha256 == digest)
    #expect(blob.path == "blobs/ba/78/\(digest).webp")
    #expect(blob.bytes == 3 && blob.isNew)
    #expect(FileManager.default.contents(atPath: root + "/" + blob.path) == Data("abc".utf8))
  }

  @Test func rerunWritesNothingNew() throws {
    let root = try Fixtures.temporaryDirectory()
    let store = BlobStore(root: root)
    let bytes = [UInt8](repeating: 7, count: 10_000)
    let first = try store.store(bytes, fileExtension: "png")
    let path = root + "/" + first.path
    let before = try FileManager.default.attributesOfItem(atPath: path)
    let inode = before[.systemFileNumber] as? Int
    let second = try store.store(bytes, fileExtension: "png")
    #expect(first.isNew && !second.isNew)
    #expect(second.path == first.path)
    let after = try FileManager.default.attributesOfItem(atPath: path)
    #expect(after[.systemFileNumber] as? Int == inode)
  }

  @Test func leavesNoTemporaryFiles() throws {
    let root = try Fixtures.temporaryDirectory()
    let store = BlobStore(root: root)
    for index in 0..<20 { _ = try store.store([UInt8(index)], fileExtension: "jpg") }
    let files = try FileManager.default.subpathsOfDirectory(atPath: root)
    #expect(!files.contains { $0.contains(".tmp-") })
    #expect(files.filter { $0.hasSuffix(".jpg") }.count == 20)
  }

  @Test func concurrentWritersOfTheSameBlobNeverTearIt() async throws {
    let root = try Fixtures.temporaryDirectory()
    let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 31) }
    let paths = await withTaskGroup(of: String?.self) { group in
      for _ in 0..<8 {
        group.addTask { try? BlobStore(root: root).store(bytes, fileExtension: "webp").path }
      }
      return await group.reduce(into: [String?]()) { $0.append($1) }
    }
    #expect(Set(paths).count == 1)
    let path = try #require(paths.first ?? nil)
    #expect(FileManager.default.contents(atPath: root + "/" + path) == Data(bytes))
  }

  @Test func unwritableRootIsATypedErrorWithStrerror() throws {
    let root = try Fixtures.temporaryDirectory()
    let file = root + "/not-a-directory"
    #expect(FileManager.default.createFile(atPath: file, contents: Data()))
    #expect(throws: StoreError.io(path: file, operation: "create directory", message: "Not a directory")) {
      try BlobStore(root: file).store([1, 2, 3], fileExtension: "png")
    }
  }
}
