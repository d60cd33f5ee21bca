import Foundation
import Testing

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
    #expect(records.map { $0["source"] as? String } == inputs)
    let first = records[0]
    #expect(first["width"] as? Int == 473 && first["height"] as? Int == 315)
    #expect(first["format"] as? String == "webp")
    let path = try #require(first["path"] as? String)
    let sha = try #require(first["sha256"] as? String)
    #expect(path == "blobs/\(sha.prefix(2))/\(sha.dropFirst(2).prefix(2))/\(sha).webp")
    let blob = try #require(FileManager.default.contents(atPath: out + "/" + path))
    #expect(blob.count == first["bytes"] as? Int)
    #expect((first["color"] as? String)?.count == 7)
    #expect(((first["placeholder"] as? String)?.count ?? 0) > 20)
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
    #expect(records[1]["width"] as? Int == 64 && records[1]["height"] as? Int == 64)
    #expect((records[2]["error"] as? [String: String])?["code"] == "unreadableInput")
  }

  @Test func dashReadsStandardInput() async throws {
    let out = try Self.temporaryDirectory()
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.photos + "/storm.jpg")))
    let captured = CapturedConsole(input: bytes)
    let status = await ThumbifyCommandLine.run(
      ["thumb", "-", "--out", out, "--format", "png"], console: captured.console)
    #expect(status == 0)
    let records = try Self.manifest(out)
    #expect(records.first?["source"] as? String == "-")
    #expect(records.first?["format"] as? String == "png")
  }

  @Test(arguments: [
    (["--size", "600"], "The value '600' is invalid for '--size <WxH>'"),
    (["--size", "0x10"], "The value '0x10' is invalid for '--size <WxH>'"),
    (["--size=axb"], "The value 'axb' is invalid for '--size <WxH>'"),
    (["--fit", "stretch"], "The value 'stretch' is invalid for '--fit <fit>'"),
    (["--format", "gif"], "The value 'gif' is invalid for '--format <format>'"),
  ])
  func badValuesAreUsageErrors(_ extra: [String], message: String) async {
    let result = await runCLI(["thumb", "a.jpg", "--out", "/nonexistent"] + extra)
    #expect(result.status == 64)
    #expect(
      result.err == """
        Error: \(message)
        Usage: thumbify thumb <images> ... --out <dir> [--size <WxH>] [--fit <fit>] [--format <format>] [--log-format <format>]
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

  @Test func sizeParsing() {
    #expect(ThumbCommand.parseSize("600x315")?.description == "600x315")
    #expect(ThumbCommand.parseSize("600X315") == nil)
    #expect(ThumbCommand.parseSize("-1x5") == nil)
    #expect(ThumbCommand.parseSize("9000x10") == nil)
  }
}
