import Foundation
import Testing
import ThumbifyExtracting
import ThumbifyStore
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

@Suite("Shard function", .offThePool)
struct ShardTests {
  @Test(arguments: [
    ("http://www.example.com/a", "example.com"),
    ("https://user:pw@blog.example.com:8443/x?y", "example.com"),  // the port of a name does not count
    ("http://news.bbc.co.uk/", "bbc.co.uk"),
    ("http://xn--bcher-kva.de/", "xn--bcher-kva.de"),
    ("http://localhost:8080/", "localhost"),
    ("http://example.com./", "example.com"),
    ("http://127.0.0.1:8081/p", "127.0.0.1:8081"),  // IP literals: host and port
    ("http://127.0.0.1/p", "127.0.0.1"),
    ("http://[::1]:8080/", "[::1]:8080"),
    ("http://[2001:db8::1]/", "[2001:db8::1]"),
  ])
  func keys(url: String, key: String) {
    #expect(Shard.key(ofNormalizedURL: url) == key)
  }

  /// Hosts of one registrable domain share a shard, whatever the spelling in the list (the key is of the
  /// normalized URL); an IDNA host's Unicode and Punycode spellings are one.
  @Test func groupingAndIDNA() throws {
    let spellings = [
      "http://a.example.co.uk/1", "HTTPS://B.Example.CO.UK:443/2", "http://c.d.example.co.uk:8080/3",
    ]
    let shards = try Set(
      spellings.map { Shard.index(ofNormalizedURL: try URLNormalization.normalize($0), count: 16) })
    #expect(shards.count == 1)
    let unicode = try URLNormalization.normalize("http://www.Bücher.de/x")
    let punycode = try URLNormalization.normalize("http://shop.xn--bcher-kva.de/y")
    #expect(Shard.key(ofNormalizedURL: unicode) == "xn--bcher-kva.de")
    #expect(
      Shard.index(ofNormalizedURL: unicode, count: 7) == Shard.index(ofNormalizedURL: punycode, count: 7))
  }

  /// Values pinned from an independent computation (Python's hashlib:
  /// `int.from_bytes(sha256(key).digest()[:8], "big") % n`), so a change of the function shows.
  @Test(arguments: [
    ("example.com", [1, 1, 5, 309]),
    ("bbc.co.uk", [1, 1, 0, 541]),
    ("127.0.0.1:8081", [0, 0, 5, 644]),
    ("[::1]:8080", [0, 2, 6, 886]),
    ("xn--bcher-kva.de", [0, 2, 1, 786]),
    ("localhost", [0, 0, 0, 424]),
    ("city.kobe.jp", [0, 0, 1, 700]),
  ])
  func pinnedValues(key: String, expected: [Int]) {
    #expect([2, 4, 7, 1000].map { Shard.index(ofKey: key, count: $0) } == expected)
  }

  /// 2,000 keys against python3 computing the same hash, in another process.
  @Test func agreesWithPython() async throws {
    let keys = (0..<2_000).map { "host\($0).example\($0 % 13).com" }
    let root = makeTemporaryDirectory("shard-python")
    defer { removeDirectory(root) }
    try keys.joined(separator: "\n").write(toFile: root + "/keys", atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [
      "-c",
      "import hashlib,sys\nfor k in open(sys.argv[1]).read().split('\\n'):\n"
        + " print(int.from_bytes(hashlib.sha256(k.encode()).digest()[:8], 'big') % 97)",
      root + "/keys",
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let python = String(decoding: data, as: UTF8.self).split(separator: "\n").map { Int($0) }
    #expect(python == keys.map { Shard.index(ofKey: $0, count: 97) })
  }

  /// 100,000 domains: every shard within 3 % of its share. 1,000 ports of one address in 2 or 4 shards:
  /// within 8 % (250 keys a shard: a binomial's standard deviation is 5 % there).
  @Test(arguments: [2, 4, 16])
  func balance(count: Int) {
    func isBalanced(_ keys: [String], within tolerance: Double) -> Bool {
      var sizes = [Int](repeating: 0, count: count)
      for key in keys { sizes[Shard.index(ofKey: key, count: count)] += 1 }
      let share = Double(keys.count) / Double(count)
      return sizes.allSatisfy { abs(Double($0) - share) <= share * tolerance }
    }
    #expect(isBalanced((0..<100_000).map { "site\($0).com" }, within: 0.03))
    if count <= 4 { #expect(isBalanced((10_000..<11_000).map { "127.0.0.1:\($0)" }, within: 0.08)) }
  }

  @Test func parsing() {
    #expect(Shard("2/4") == Shard(index: 2, count: 4))
    #expect(Shard("0/1")?.contains(normalizedURL: "http://a.com/") == true)
    for text in ["4/4", "-1/4", "1/0", "1", "a/b", "1/2/3", ""] { #expect(Shard(text) == nil, "\(text)") }
  }

  /// The shards of one count partition every URL: each is in exactly one.
  @Test func partition() {
    let shards = (0..<5).compactMap { Shard(index: $0, count: 5) }
    for index in 0..<500 {
      let url = "http://h\(index).example\(index % 7).org/p"
      #expect(shards.filter { $0.contains(normalizedURL: url) }.count == 1)
    }
  }
}
