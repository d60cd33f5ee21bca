import Foundation
import Testing
import ThumbifySystem
import ThumbifySystemTestSupport

@Suite("File paths", .offThePool)
struct FilePathTests {
  static let spellings = [
    "", "/", "//", "a", "a/", "a//", "/a", "/a/", "a/b", "a/b/", "a//b", "/a/b/c.json", "out/blobs/ab/cd",
    "..", "../a", "a/..", "a/../b", "./a", ".", "/..", "ünïcode ✓/x", ".tmp-1",
  ]

  @Test(arguments: spellings)
  func theStringIsKeptAsGiven(spelling: String) {
    #expect(FilePath(spelling).string == spelling)
    #expect(FilePath(spelling).description == spelling)
    #expect(FilePath(spelling) == FilePath(stringLiteral: spelling))
  }

  @Test(arguments: ["a", "out", "/", "/srv/out", "../up", "a//"])
  func appendingThenRemovingGivesTheDirectoryBack(directory: String) {
    for name in ["manifest.jsonl", "..", ".tmp-1", "ünïcode ✓"] {
      let joined = FilePath(directory).appending(name)
      #expect(joined.lastComponent == name, "\(joined)")
      #expect(joined.removingLastComponent() == FilePath(directory).removingTrailingSlashes(), "\(joined)")
      #expect(joined.string.hasPrefix(directory), "\(joined)")
      #expect(!joined.string.contains("//") || directory.contains("//"), "\(joined)")
    }
  }

  @Test func oneSlashJoinsWhateverTheDirectoryEndsWith() {
    #expect(FilePath("out").appending("cards") == "out/cards")
    #expect(FilePath("out/").appending("cards") == "out/cards")
    #expect(FilePath("/").appending("cards") == "/cards")
    #expect(FilePath("out").appending("blobs/ab/cd", "x.webp") == "out/blobs/ab/cd/x.webp")
    #expect(FilePath("out").appending("..") == "out/..")
  }

  @Test func theEmptyPathIsTheCurrentDirectory() {
    #expect(FilePath("").isEmpty)
    #expect(FilePath("").appending("manifest.jsonl") == "manifest.jsonl")
    #expect(FilePath("").lastComponent == nil)
    #expect(FilePath("").removingLastComponent() == "")
    #expect(FilePath("manifest.jsonl").removingLastComponent() == "")
    #expect(!FilePath("").isAbsolute)
  }

  @Test func theRootHasNoLastComponentAndIsItsOwnParent() {
    for root in ["/", "//"] {
      #expect(FilePath(root).lastComponent == nil)
      #expect(FilePath(root).removingLastComponent() == FilePath(root))
      #expect(FilePath(root).isAbsolute)
    }
    #expect(FilePath("/a").removingLastComponent() == "/")
    #expect(FilePath("//a/").removingLastComponent() == "/")
  }

  @Test func trailingSlashesAndDotDotAreNotResolved() {
    #expect(FilePath("out/cards/").lastComponent == "cards")
    #expect(FilePath("out/cards//").removingLastComponent() == "out")
    #expect(FilePath("a/..").lastComponent == "..")
    #expect(FilePath("a/..").removingLastComponent() == "a")
    #expect(FilePath("../a").removingLastComponent() == "..")
  }

  /// The last component and the parent as `NSString`'s `lastPathComponent` and
  /// `deletingLastPathComponent` give them (which the code used before; Foundation on Linux traps on
  /// some of these spellings, so it is not called here).
  @Test(arguments: [
    ("a", "a", ""), ("a/", "a", ""), ("a//", "a", ""), ("/a", "a", "/"), ("/a/", "a", "/"), ("a/b", "b", "a"),
    ("a/b/", "b", "a"), ("a//b", "b", "a"), ("/a/b/c.json", "c.json", "/a/b"), ("..", "..", ""),
    ("../a", "a", ".."), ("a/../b", "b", "a/.."), ("./a", "a", "."), ("/..", "..", "/"),
    ("ünïcode ✓/x", "x", "ünïcode ✓"), ("out/ünïcode ✓", "ünïcode ✓", "out"),
  ])
  func lastComponentAndParent(path: String, last: String, parent: String) {
    #expect(FilePath(path).lastComponent == last)
    #expect(FilePath(path).removingLastComponent() == FilePath(parent))
  }

  @Test func extensionsAreAfterTheLastDotOfTheLastComponent() {
    #expect(FilePath("blobs/ab/cd/ab12.webp").extension == "webp")
    #expect(FilePath("a.tar.gz").extension == "gz")
    #expect(FilePath("a.d/b").extension == nil)
    #expect(FilePath(".tmp-1").extension == nil)
    #expect(FilePath("a.").extension == nil)
    #expect(FilePath("").extension == nil)
    #expect(FilePath("x.json/").extension == "json")
  }
}

extension FilePath {
  /// The path without trailing slashes (the root stays).
  fileprivate func removingTrailingSlashes() -> FilePath {
    var string = self.string
    while string.count > 1, string.hasSuffix("/") { string.removeLast() }
    return FilePath(string)
  }
}
