import Foundation
import Testing
import ThumbifyStoreTestSupport

@testable import ThumbifyCLI

@Suite("thumbify thumb")
struct ThumbCommandTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let photos = root.appendingPathComponent("samples/photos").path

  static func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "thumbify-cli-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  static func manifest(_ directory: String) throws -> [[String: Any]] {
    let text = try String(contentsOfFile: directory + "/manifest.jsonl", encoding: .utf8)
    return try text.split(separator: "\n").map { line in
      try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }

  @Test func writesOneRecordPerInputInOrder() async throws {
    let out = try Self.temporaryDirectory()
    let inputs = ["storm.jpg", "ladybird.webp", "freshflower-alpha.png", "greenmeadow.jpg"].map {
      Self.photos + "/" + $0
    }
    let result = await runCLI(["thumb"] + inputs + ["--out", out])
    #expect(result.status == 0)
    #expect(result.err.isEmpty)
    #expect(result.out == "4 of 4 images thumbnailed; manifest: \(out)/manifest.jsonl\n")
    let records = try Self.manifest(out)
    // A crawl's record (issue 21): the path as given is `originalURL`, the thumbnails are `image`.
    #expect(records.map { $0["originalURL"] as? String } == inputs)
    #expect(records.allSatisfy { $0["schema"] as? Int == 2 && $0["outcome"] as? String == "ok" })
    let image = try #require(records[0]["image"] as? [String: Any])
    #expect(image["source"] as? String == inputs[0])
    let first = try #require(Self.variants(records[0]).first)
    #expect(first["name"] as? String == "thumb")
    #expect(first["width"] as? Int == 473 && first["height"] as? Int == 315)
    // `width` is the source's, as in every manifest record, not the thumbnail's.
    #expect((image["width"] as? Int ?? 0) > 473)
    #expect(first["format"] as? String == "webp")
    let path = try #require(first["path"] as? String)
    let sha = try #require(first["sha256"] as? String)
    #expect(path == "blobs/\(sha.prefix(2))/\(sha.dropFirst(2).prefix(2))/\(sha).webp")
    let blob = try #require(FileManager.default.contents(atPath: out + "/" + path))
    #expect(blob.count == first["bytes"] as? Int)
    #expect((image["color"] as? String)?.count == 7)
    #expect(((image["placeholder"] as? String)?.count ?? 0) > 20)
  }

  @Test func rerunIsByteIdenticalAndWritesNoNewBlobs() async throws {
    let out = try Self.temporaryDirectory()
    let inputs = [Self.photos + "/raindrops-progressive.jpg", Self.photos + "/yellowflower.webp"]
    _ = await runCLI(["thumb"] + inputs + ["--out", out, "--format", "jpeg"])
    let first = try String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8)
    let blobsBefore = try FileManager.default.subpathsOfDirectory(atPath: out + "/blobs").sorted()
    let result = await runCLI(["thumb"] + inputs + ["--out", out, "--format", "jpeg"])
    #expect(result.status == 0)
    #expect(try String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8) == first)
    #expect(try FileManager.default.subpathsOfDirectory(atPath: out + "/blobs").sorted() == blobsBefore)
  }

  @Test func failuresAreRecordedAndExitOne() async throws {
    let out = try Self.temporaryDirectory()
    let garbage = out + "/garbage.jpg"
    #expect(FileManager.default.createFile(atPath: garbage, contents: Data("not an image".utf8)))
    let missing = out + "/missing.png"
    let good = Self.photos + "/storm.jpg"
    let result = await runCLI([
      "thumb", garbage, good, missing, "--out", out, "--size", "64x64", "--fit", "cover",
    ])
    #expect(result.status == 1)
    #expect(result.out == "1 of 3 images thumbnailed; manifest: \(out)/manifest.jsonl\n")
    #expect(result.err.contains("\(missing): Could not read '\(missing)': No such file or directory\n"))
    let records = try Self.manifest(out)
    #expect(records.count == 3)
    #expect((records[0]["error"] as? [String: String])?["code"] != nil)
    #expect(records[0]["outcome"] as? String == "failed")
    let thumbnail = try #require(Self.variants(records[1]).first)
    #expect(thumbnail["width"] as? Int == 64 && thumbnail["height"] as? Int == 64)
    #expect((records[2]["error"] as? [String: String])?["code"] == "unreadableInput")
  }

  @Test func dashReadsStandardInput() async throws {
    let out = try Self.temporaryDirectory()
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.photos + "/storm.jpg")))
    let captured = CapturedConsole(input: bytes, environment: TestState.environment)
    let status = await ThumbifyCommandLine.run(
      ["thumb", "-", "--out", out, "--format", "png"], console: captured.console)
    #expect(status == 0)
    let records = try Self.manifest(out)
    #expect(records.first?["originalURL"] as? String == "-")
    #expect(try Self.variants(#require(records.first)).first?["format"] as? String == "png")
  }

  @Test(arguments: [
    (
      ["--size", "600"],
      "The value '600' is invalid for '--size <WxH>'\n  Give a width and a height from 1 to 8192, as 600x315."
    ),
    (
      ["--size", "0x10"],
      "The value '0x10' is invalid for '--size <WxH>'\n  Give a width and a height from 1 to 8192, as 600x315."
    ),
    (
      ["--size=axb"],
      "The value 'axb' is invalid for '--size <WxH>'\n  Give a width and a height from 1 to 8192, as 600x315."
    ),
    (["--fit", "stretch"], "The value 'stretch' is invalid for '--fit <fit>'\n  Give contain or cover."),
    (
      ["--format", "gif"],
      "The value 'gif' is invalid for '--format <format>'\n  Give webp, jpeg, png or avif."
    ),
    (
      ["--quality", "0"],
      "The value '0' is invalid for '--quality <1-100>'\n  Give a whole number from 1 to 100."
    ),
    (["--variant", "a=10"], "The value 'a=10' is invalid for '--variant <spec>'"),
    (["--variant", "a=10x10", "--variant", "a=20x20"], "The variant name 'a' is given twice"),
    (
      ["--variant", "a=10x10", "--size", "20x20"],
      "'--size' cannot be combined with '--variant' (give it in the --variant spec)"
    ),
  ])
  // `message` holds the hint line under it where there is one.
  func badValuesAreUsageErrors(_ extra: [String], message: String) async {
    let result = await runCLI(["thumb", "a.jpg", "--out", "/nonexistent"] + extra)
    #expect(result.status == 64)
    #expect(
      result.err == """
        Error: \(message)
        Usage: thumbify thumb <images> ... --out <dir> [--state <dir>] [--variant <spec> ...] [--size <WxH>] [--fit <fit>] [--format <format>] [--quality <1-100>] [--quiet] [--log-format <format>]
          See 'thumbify thumb --help' for more information.

        """)
  }

  @Test func unwritableOutputIsFatalWithOneLine() async throws {
    let directory = try Self.temporaryDirectory()
    let file = directory + "/file"
    #expect(FileManager.default.createFile(atPath: file, contents: Data()))
    let result = await runCLI(["thumb", Self.photos + "/storm.jpg", "--out", file + "/out"])
    #expect(result.status == 70)
    #expect(result.out.isEmpty)
    #expect(result.err == "Error: Could not create directory '\(file)': Not a directory\n")
  }

  /// Issue 21: `--variant` as in `crawl`, a quality, `-q`, and a manifest `report` reads.
  @Test func variantsQualityQuietAndAReportOfTheManifest() async throws {
    let out = try Self.temporaryDirectory()
    let inputs = [Self.photos + "/storm.jpg", out + "/missing.png"]
    let result = await runCLI(
      ["thumb"] + inputs + [
        "--out", out, "-q", "--variant", "small=100x100,cover,jpeg,q=40", "--variant", "large=300x300",
      ])
    #expect(result.status == 1)
    #expect(result.out.isEmpty && result.err.isEmpty, "-q prints nothing but fatal errors")
    let records = try Self.manifest(out)
    let variants = try Self.variants(records[0])
    #expect(variants.map { $0["name"] as? String } == ["small", "large"])
    #expect(variants[0]["format"] as? String == "jpeg" && variants[0]["width"] as? Int == 100)
    #expect(variants[1]["format"] as? String == "webp" && variants[1]["width"] as? Int == 300)
    let report = await runCLI(["report", out])
    #expect(report.status == 0, "\(report.err)")
    #expect(report.out.contains("2 cards (1 ok, 0 stale, 1 failed)"), "\(report.out)")
    let page = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
    #expect(page.contains(try #require(variants[0]["path"] as? String)))

    // A lower quality gives a smaller file of the same size.
    let low = try Self.temporaryDirectory()
    let high = try Self.temporaryDirectory()
    _ = await runCLI(["thumb", inputs[0], "--out", low, "--format", "jpeg", "--quality", "20"])
    _ = await runCLI(["thumb", inputs[0], "--out", high, "--format", "jpeg", "--quality", "95"])
    let lowBytes = try #require(Self.variants(Self.manifest(low)[0]).first?["bytes"] as? Int)
    let highBytes = try #require(Self.variants(Self.manifest(high)[0]).first?["bytes"] as? Int)
    #expect(lowBytes < highBytes)
  }

  static func variants(_ record: [String: Any]) throws -> [[String: Any]] {
    let image = try #require(record["image"] as? [String: Any])
    return try #require(image["variants"] as? [[String: Any]])
  }

  @Test func sizeParsing() {
    #expect(ThumbCommand.parseSize("600x315")?.description == "600x315")
    #expect(ThumbCommand.parseSize("600X315") == nil)
    #expect(ThumbCommand.parseSize("-1x5") == nil)
    #expect(ThumbCommand.parseSize("9000x10") == nil)
  }
}
