import Foundation
import Synchronization
import Testing
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

@testable import Thumbify

@Suite("URL list reader")
struct URLListReaderTests {
  static let text = """
    # a comment
    http://example.com/a

    \t HTTPS://Example.com:443/b  \r
    not a url
    ftp://example.com/c
    #http://example.com/commented
    http://example.com/d
    """

  func entries(_ reader: URLListReader) throws -> [URLListReader.Entry] {
    var entries: [URLListReader.Entry] = []
    while let entry = try reader.next() { entries.append(entry) }
    return entries
  }

  static let expected: [URLListReader.Entry] = [
    .url(line: 2, url: "http://example.com/a", normalizedURL: "http://example.com/a"),
    .url(line: 4, url: "HTTPS://Example.com:443/b", normalizedURL: "https://example.com/b"),
    .invalid(line: 5, text: "not a url", error: .invalidURL("not a url")),
    .invalid(line: 6, text: "ftp://example.com/c", error: .unsupportedScheme("ftp")),
    .url(line: 8, url: "http://example.com/d", normalizedURL: "http://example.com/d"),
  ]

  @Test func skipsCommentsAndBlanksAndReportsInvalidLinesWithTheirNumbers() throws {
    #expect(try entries(URLListReader(bytes: Array(Self.text.utf8))) == Self.expected)
  }

  /// With a shard, a reader returns only that shard's URLs (line numbers as in the whole list), and the
  /// invalid lines in shard 0 alone: the shards together read each line once.
  @Test func aShardReadsItsURLsAndShardZeroTheInvalidLines() throws {
    let lines = (0..<200).map { "http://h\($0 % 40).example\($0 % 9).org/p\($0)" } + ["not a url"]
    let bytes = Array(lines.joined(separator: "\n").utf8)
    let all = try entries(URLListReader(bytes: bytes))
    var union: [URLListReader.Entry] = []
    for index in 0..<3 {
      let reader = URLListReader(bytes: bytes)
      reader.shard = Shard(index: index, count: 3)
      let read = try entries(reader)
      for entry in read {
        if case .url(_, _, let normalized) = entry {
          #expect(Shard.index(ofNormalizedURL: normalized, count: 3) == index)
        } else {
          #expect(index == 0)
        }
      }
      #expect(!read.isEmpty)
      union += read
    }
    func line(_ entry: URLListReader.Entry) -> Int {
      switch entry {
      case .url(let line, _, _), .invalid(let line, _, _): line
      }
    }
    #expect(union.sorted { line($0) < line($1) } == all)
  }

  /// Issue 17: a list saved by a Windows editor starts with a UTF-8 byte order mark, which made its
  /// first URL invalid. Only a mark at the very start is dropped.
  @Test func aByteOrderMarkBeforeTheFirstURLIsNotPartOfIt() throws {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let list = bom + Array("http://example.com/a\n".utf8) + bom + Array("http://example.com/b\n".utf8)
    let read = try entries(URLListReader(bytes: list))
    #expect(read.first == .url(line: 1, url: "http://example.com/a", normalizedURL: "http://example.com/a"))
    guard case .invalid(line: 2, _, _) = read.last else {
      Issue.record("a mark inside the list is not dropped: \(read)")
      return
    }
  }

  @Test func readsFilesAndDescriptorsTheSameWay() throws {
    let directory = makeTemporaryDirectory("list")
    defer { removeDirectory(directory) }
    let path = directory + "/urls.txt"
    try Self.text.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(try entries(try URLListReader(path: path)) == Self.expected)
    let descriptor = open(path, O_RDONLY)
    defer { close(descriptor) }
    #expect(try entries(try URLListReader(fileDescriptor: descriptor)) == Self.expected)
  }

  @Test func trimmingMatchesFoundationsWhiteSpaceRules() {
    let lines = [
      "http://a.test/", " http://a.test/", "http://a.test/ ", "\thttp://a.test/\r",
      "\u{A0}http://a.test/\u{3000}",
      "http://a.test/\u{2003}", "\u{85}x", "x\u{0B}", "\u{0C}", "", " ", "é", "a b", "#c", "\u{7F}x\u{7F}",
    ]
    for line in lines {
      #expect(
        URLListReader.trimmed(Array(line.utf8)) == line.trimmingCharacters(in: .whitespacesAndNewlines),
        "\(line.debugDescription)")
    }
  }

  @Test func aMissingFileIsATypedError() {
    #expect(
      throws: StoreError.io(
        path: "/nonexistent/urls.txt", operation: "open", message: "No such file or directory")
    ) {
      try URLListReader(path: "/nonexistent/urls.txt")
    }
  }

  @Test func anOverlongLineIsInvalidWithoutBeingKept() throws {
    let long = "http://example.com/" + String(repeating: "a", count: URLListReader.maxLineLength * 2)
    let reader = URLListReader(bytes: Array((long + "\nhttp://example.com/ok\n").utf8))
    guard case .invalid(let line, let text, _) = try reader.next() else {
      Issue.record("expected an invalid line")
      return
    }
    #expect(line == 1)
    #expect(text.count < 100)
    #expect(
      try reader.next() == .url(line: 2, url: "http://example.com/ok", normalizedURL: "http://example.com/ok")
    )
    #expect(try reader.next() == nil)
  }
}

@Suite("Variant specifications")
struct VariantSpecificationTests {
  @Test(arguments: [
    ("card=600x1200", "card=600x1200,contain,webp,q=80"),
    ("hero=1200x630,cover,jpeg", "hero=1200x630,cover,jpeg,q=80"),
    ("icon-sm=32x32,png,cover,q=90", "icon-sm=32x32,cover,png,q=90"),
    ("x=10X20,jpg", "x=10x20,contain,jpeg,q=80"),
    ("card=600x315,avif,q=60", "card=600x315,contain,avif,q=60"),
    ("card2x=1200x2400,q=85,m=2", "card2x=1200x2400,contain,webp,q=85,m=2"),
    ("fast=600x600,m=0,webp", "fast=600x600,contain,webp,q=80,m=0"),
    ("card=600x1200,pass,q=85", "card=600x1200,contain,webp,q=85,pass"),
    (
      "card2x=1200x2400,keep-jpeg=70,q=85,m=2,pass",
      "card2x=1200x2400,contain,webp,q=85,m=2,pass,keep-jpeg=70"
    ),
    ("x=10x10,keep-jpeg=100,png", "x=10x10,contain,png,q=80,keep-jpeg=100"),
  ])
  func parsesAndPrintsCanonically(text: String, canonical: String) throws {
    let variant = try #require(ThumbnailVariant(specification: text))
    #expect(variant.specification == canonical)
  }

  @Test(arguments: [
    "card", "=600x300", "card=600", "card=0x10", "card=600x300,gif", "card=600x300,heic", "card=600x300,q=0",
    "c d=1x1", "card=600x300,m=7", "card=600x300,m=-1", "card=600x300,m=",
    "card=600x300,keep-jpeg", "card=600x300,keep-jpeg=", "card=600x300,keep-jpeg=0",
    "card=600x300,keep-jpeg=101",
    "card=600x300,keep-jpeg=q70", "card=600x300,keep-jpeg=-5", "card=600x300,keep-jpg=70",
  ])
  func rejectsMalformedSpecifications(text: String) {
    #expect(ThumbnailVariant(specification: text) == nil)
  }

  @Test func iconVariantsAreMadeFromTheIcon() {
    #expect(ThumbnailVariant(specification: "icon2x=128x128")?.role == .icon)
    #expect(ThumbnailVariant(specification: "card=600x1200")?.role == .image)
    #expect(ThumbnailVariant.defaults.map(\.role) == [.image, .image, .icon])
  }

  @Test func theDefaultsSpellTheirEncoderSettings() {
    #expect(
      ThumbnailVariant.defaults.map(\.specification) == [
        "card=600x1200,contain,webp,q=85,m=2,pass",
        "card2x=1200x2400,contain,webp,q=85,m=2,pass,keep-jpeg=70",
        "icon=64x64,cover,webp,q=80,pass",
      ])
    #expect(ThumbnailVariant.defaultImageVariants == [.card, .card2x])
  }
}

@Suite("Keyed task pool")
struct KeyedTaskPoolTests {
  @Test func concurrentRequestsForOneKeyShareOneTask() async {
    let pool = KeyedTaskPool<Int>()
    let runs = Counter()
    await withTaskGroup(of: Int.self) { group in
      for _ in 0..<20 {
        group.addTask {
          await pool.value(for: "k") {
            runs.increment()
            try? await Task.sleep(for: .milliseconds(50))
            return 7
          }
        }
      }
      for await value in group { #expect(value == 7) }
    }
    #expect(runs.value == 1)
    #expect(pool.count == 0)
  }
}

/// A thread-safe counter for tests.
final class Counter: Sendable {
  private let storage = Mutex(0)
  func increment() { storage.withLock { $0 += 1 } }
  var value: Int { storage.withLock { $0 } }
}
