import Foundation
import Testing
import ThumbifyFetchingTestSupport
import ThumbifyStoreTestSupport
import ThumbifySystem
import ThumbifySystemTestSupport

@testable import ThumbifyStore

/// Issue 21: serving a crawl's output directory the way docs/cards.md says (nginx, Caddy) exposes no
/// state.
extension CrawlEndToEndTests {
  /// The `location /out/ { … }` block of docs/cards.md's nginx snippet, as written there.
  static func documentedNginxLocation() throws -> String {
    let docs = try String(contentsOfFile: TestPaths.repository + "/docs/cards.md", encoding: .utf8)
    let fence = try #require(docs.range(of: "```nginx\n"))
    let lines = docs[fence.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0.hasPrefix("    location /out/ {") })
    let end = try #require(lines[start...].firstIndex { $0 == "    }" })
    return lines[start...end].joined(separator: "\n")
  }

  /// docs/cards.md's Caddyfile, as written there, with its site address as `{address}` and its root
  /// `root`.
  static func documentedCaddySite(root: String) throws -> String {
    let docs = try String(contentsOfFile: TestPaths.repository + "/docs/cards.md", encoding: .utf8)
    let fence = try #require(docs.range(of: "```caddy\n"))
    let end = try #require(docs[fence.upperBound...].range(of: "```"))
    let site = String(docs[fence.upperBound..<end.lowerBound])
    #expect(site.hasPrefix("example.org {") && site.contains("root * /srv/www\n"))
    return site.replacingOccurrences(of: "example.org {", with: "{address} {")
      .replacingOccurrences(of: "root * /srv/www\n", with: "root * \(root)\n")
  }

  /// Every regular file under `directory`, relative to it (dotfiles included).
  static func files(under directory: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
    var files: [String] = []
    while let path = walker.nextObject() as? String {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        files.append(path)
      }
    }
    return files.sorted()
  }

  /// `GET path` over HTTP/1.0: the status and the `Cache-Control` header.
  static func get(_ path: String, port: Int) async throws -> (status: Int, cacheControl: String?) {
    try await offThePool {
      let fd = connectLoopback(port: port)
      guard fd >= 0 else { throw ServerError("cannot connect to port \(port)") }
      defer { close(fd) }
      let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
      guard request.withUnsafeBytes({ SystemCall.writeAll(fd, $0) }) else {
        throw ServerError("write failed")
      }
      var response: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let count = buffer.withUnsafeMutableBytes {
          SystemCall.read(fd, into: $0.baseAddress!, count: $0.count)
        }
        guard count > 0 else { break }
        response += buffer.prefix(count)
      }
      let head = String(decoding: response.prefix(4096), as: UTF8.self)
        .components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
      let status = Int(head[0].split(separator: " ").dropFirst().first ?? "") ?? 0
      let cacheControl = head.dropFirst().first { $0.lowercased().hasPrefix("cache-control:") }
        .map { String($0.dropFirst("cache-control:".count)).trimmingCharacters(in: .whitespaces) }
      return (status, cacheControl)
    }
  }

  @Test func servingTheOutputExposesNoState() async throws {
    // Given a real crawl of the local web into <served>/out, its state in the default location, and
    // the parent of <out> served by nginx and by Caddy with docs/cards.md's configurations, as the
    // issue served it
    let served = makeTemporaryDirectory("served")
    defer { removeDirectory(served) }
    let out = served + "/out"
    defer { removeDirectory(out) }
    let run = try await thumbify([
      "crawl", listPath, "--out", out, "--allow-private-network", "--ignore-robots",
    ])
    #expect(run.status == 1, "some sample pages are broken on purpose: \(run.err)")
    let state = testLayout(out).stateDirectory
    let servedRoot = OutputLayout.resolvedPath(served)
    #expect(!OutputLayout.resolvedPath(state).hasPrefix(servedRoot + "/"))
    var options = LoopbackNginx.Options()
    options.serverDirectives = try Self.documentedNginxLocation()
    let nginx = try await LoopbackNginx(docroot: URL(fileURLWithPath: served), options: options)
    defer { nginx.stop() }
    let caddy = try await LoopbackCaddy(siteBlock: try Self.documentedCaddySite(root: served))
    defer { caddy.stop() }
    let servers = [("nginx", nginx.port), ("Caddy", caddy.port)]

    // Then the output directory holds only blobs, cards and the manifest, no temporary file left
    let written = Self.files(under: out)
    #expect(written.contains("manifest.jsonl"))
    #expect(written.filter { $0.hasPrefix("cards/") }.count == 16)
    #expect(written.contains { $0.hasPrefix("blobs/") })
    for path in written {
      #expect(
        path == "manifest.jsonl" || path.hasPrefix("cards/") || path.hasPrefix("blobs/"),
        "\(path) is in the served tree")
      #expect(!path.contains(".tmp-"), "\(path) was left behind")
    }
    // and every one of them is served by both, blobs for a year and the rest briefly
    for (name, port) in servers {
      for path in written {
        let response = try await Self.get("/out/" + path, port: port)
        #expect(response.status == 200, "\(name): /out/\(path)")
        let expected =
          path.hasPrefix("blobs/") ? "public, max-age=31536000, immutable" : "public, max-age=300"
        #expect(response.cacheControl == expected, "\(name): /out/\(path)")
      }
    }

    // and every state file, where it is and where it used to be, answers 404
    let stateFiles = Self.files(under: state)
    #expect(stateFiles.contains("state.sqlite"))
    #expect(stateFiles.contains("lock"))
    for (name, port) in servers {
      for path in stateFiles {
        for url in ["/out/.thumbify/" + path, "/out/" + path] {
          #expect(try await Self.get(url, port: port).status == 404, "\(name): \(url)")
        }
      }
    }

    // and so do files that must never be served even when they exist: an old state not yet moved,
    // temporary files of writes in flight, the directory listing
    let planted = [".thumbify/state.sqlite", "manifest.jsonl.tmp-123", "cards/.tmp-abc", "notes.txt"]
    for path in planted {
      try FileManager.default.createDirectory(
        atPath: ((out + "/" + path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      #expect(FileManager.default.createFile(atPath: out + "/" + path, contents: Data("x".utf8)))
    }
    for (name, port) in servers {
      for url in planted.map({ "/out/" + $0 }) + ["/out/", "/out/cards/", "/out/.thumbify/"] {
        #expect(try await Self.get(url, port: port).status == 404, "\(name): \(url)")
      }
    }
  }
}

extension CrawlEndToEndTests {
  @Test func anOldStateInsideTheOutputIsMovedAndTheRerunIsIncremental() async throws {
    // Given a crawl whose state is where thumbify kept it before issue 21, in <out>/.thumbify
    let first = try await crawl()
    #expect(first.status == 1)
    let layout = testLayout(out)
    try FileManager.default.moveItem(atPath: layout.stateDirectory, toPath: layout.legacyStateDirectory)
    let before = nginx.accessLog().count

    // When the real binary crawls the directory again
    let rerun = try await crawl()

    // Then it moved the state out of the served tree, said so in one line, and used it: unchanged
    // pages are answered 304 and no image is fetched again
    #expect(
      rerun.err.components(separatedBy: "\n").filter { $0.hasPrefix("Moved the crawl state") }
        == ["Moved the crawl state from '\(out)/.thumbify' to '\(layout.stateDirectory)'."])
    #expect(!FileManager.default.fileExists(atPath: layout.legacyStateDirectory))
    #expect(FileManager.default.fileExists(atPath: layout.stateDatabase))
    let second = nginx.accessLog().dropFirst(before)
    #expect(second.contains { $0.hasPrefix("304 ") })
    #expect(!second.contains { $0.contains("/photos/") })
    #expect(record(try readManifest(out), "/")?.outcome == .notModified)
  }
}
