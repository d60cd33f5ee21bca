import Foundation
import Testing
import ThumbifyFetchingTestSupport
import ThumbifyStoreTestSupport
import ThumbifySystemTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `thumbify serve` as operations see it: its JSON access log, and its live directory taken into the
/// nightly one by `thumbify merge`. The real binary on loopback.
@Suite("thumbify serve operations", .timeLimit(.minutes(5)))
struct ServeOperationTests {
  @Test("--log-format json writes one request object per request, with its fields")
  func jsonAccessLog() async throws {
    let nginx = try await LoopbackNginx()
    try ServeCommandTests.writeSite(nginx)
    let server = try await ServeProcess(["--allow-private-network", "--log-format", "json"])
    let url = nginx.url("/page.html")
    let targets = [
      ServeProcess.cardTarget(url), ServeProcess.cardTarget(url), ServeProcess.cardTarget("ftp://x/"),
      "/healthz", "/nowhere",
    ]
    var statuses: [Int] = []
    for target in targets { statuses.append(try await server.get(target).status) }
    #expect(statuses == [200, 200, 400, 200, 404])
    #expect(try await server.terminate() == 0)

    let docs = try JSONSchemaValidator(directory: TestPaths.repository + "/docs")
    let lines = server.logText.split(separator: "\n").map(String.init)
    var requests: [[String: Any]] = []
    for line in lines {
      // Every line on standard error is one JSON object (notes too), valid as a log line.
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
      #expect(docs.errors(ofText: line, against: "log.schema.json").isEmpty, "\(line)")
      guard object["event"] as? String == "request" else { continue }
      #expect(docs.errors(ofText: line, against: "log.schema.json#/$defs/request").isEmpty, "\(line)")
      requests.append(object)
    }
    // One line per request, in the order answered (one connection at a time), with what happened.
    #expect(requests.compactMap { $0["target"] as? String } == targets)
    #expect(requests.compactMap { $0["status"] as? Int } == statuses)
    #expect(
      requests.allSatisfy { $0["method"] as? String == "GET" && $0["client"] as? String == "127.0.0.1" })
    #expect(requests.allSatisfy { $0["command"] as? String == "serve" && ($0["ms"] as? Double ?? -1) >= 0 })
    #expect(requests.compactMap { $0["source"] as? String } == ["live", "stored"])
    #expect(requests.compactMap { $0["code"] as? String } == ["unsupportedScheme", "notFound"])
    let card = try await cardBytes(of: url, in: server.out)
    #expect(requests[0]["bytes"] as? Int == card.count)
  }

  @Test("thumbify merge takes a stopped server's --out into the crawl's output: the next night has its URLs")
  func mergeLiveIntoNightly() async throws {
    let nginx = try await LoopbackNginx()
    try ServeCommandTests.writeSite(nginx, pages: ["old", "new"])
    let root = makeTemporaryDirectory("serve-merge")
    defer { removeDirectory(root) }
    // The night's crawl knows the old page; the server fetches the new one live.
    let old = nginx.url("/old.html")
    let new = nginx.url("/new.html")
    try (old + "\n").write(toFile: root + "/urls.txt", atomically: true, encoding: .utf8)
    let crawl = thumbifyProcess([
      "crawl", root + "/urls.txt", "--out", root + "/nightly", "--state", root + "/nightly-state",
      "--allow-private-network", "-q",
    ])
    crawl.standardError = FileHandle.nullDevice
    #expect(try await ChildProcess.run(crawl) == 0)
    let server = try await ServeProcess([
      "--allow-private-network", "--cards", root + "/nightly", "--state", root + "/live-state",
    ])
    let answers = [
      try await server.get(ServeProcess.cardTarget(old)), try await server.get(ServeProcess.cardTarget(new)),
    ]
    #expect(answers.map(\.headers["x-thumbify-source"]) == ["cards", "live"])
    #expect(try await server.terminate() == 0)

    // The live directory joins the night's as a second shard.
    let merge = thumbifyProcess([
      "merge", root + "/nightly", server.out, "--shard-state", root + "/nightly-state",
      "--shard-state", root + "/live-state", "--out", root + "/merged", "--state", root + "/merged-state",
      "-q",
    ])
    let errors = Pipe()
    merge.standardError = errors
    let status = try await ChildProcess.run(merge)
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(status == 0, "\(message)")
    let manifest = try String(contentsOfFile: root + "/merged/manifest.jsonl", encoding: .utf8)
      .split(separator: "\n").compactMap {
        (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["normalizedURL"]
          as? String
      }
    #expect(manifest == [old, new])
    // Its card and blobs are the live ones, byte for byte; a server over the merged directory answers
    // both URLs from it without fetching.
    #expect(try await cardBytes(of: new, in: root + "/merged") == answers[1].body)
    #expect(blobFiles(server.out).isSubset(of: blobFiles(root + "/merged")))
    let fetches = nginx.accessLog().count
    let nextDay = try await ServeProcess(["--allow-private-network", "--cards", root + "/merged"])
    for url in [old, new] {
      let answer = try await nextDay.get(ServeProcess.cardTarget(url))
      #expect(answer.status == 200 && answer.headers["x-thumbify-source"] == "cards", "\(url)")
    }
    #expect(nginx.accessLog().count == fetches)
  }

  /// The bytes of `cards/<key>.json` for `url` in `directory`.
  private func cardBytes(of url: String, in directory: String) async throws -> [UInt8] {
    let key =
      await runCLI(["card-key", url]).out.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
    return try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/cards/\(key).json")))
  }
}
