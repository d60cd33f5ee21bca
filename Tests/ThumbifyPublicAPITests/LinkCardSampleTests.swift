import Foundation
import Testing
import Thumbify
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

/// `samples/link-card`, a package that depends on thumbify by path and uses only the public API,
/// builds and prints a loopback page's card and writes its thumbnails.
@Suite("Public API: the link-card sample package", .timeLimit(.minutes(10)))
struct LinkCardSampleTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test func itBuildsAndPrintsOnePagesCardAndWritesItsThumbnails() async throws {
    // Given the sample built, in a scratch directory of its own inside this package's .build
    // (scripts/test builds it before the suite with these flags, so this build only checks that it is
    // up to date; run alone after a clean build, it compiles thumbify again, a few minutes)
    let scratch = Self.repository.appendingPathComponent(".build/samples/link-card")
    let build = try await Self.run(
      "/usr/bin/env",
      [
        "swift", "build", "--package-path", Self.repository.appendingPathComponent("samples/link-card").path,
        "--scratch-path", scratch.path, "-Xswiftc", "-warnings-as-errors",
      ])
    #expect(build.status == 0, "swift build: \(build.errors)")
    guard build.status == 0 else { return }

    // When it is run against a loopback article
    let site = try await ArticleSite()
    let out = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: out) }
    let run = try await Self.run(
      scratch.appendingPathComponent("debug/link-card").path,
      [site.articleURL.absoluteString, out, "--allow-private-network"])

    // Then it printed the card, which decodes as LinkMetadata, and wrote the thumbnails
    #expect(run.status == 0, "link-card: \(run.errors)")
    let metadata = try JSONDecoder().decode(LinkMetadata.self, from: Data(run.output.utf8))
    #expect(metadata.title == "Storm season")
    #expect(metadata.url == site.articleURL)
    let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    #expect(files == ["card.webp", "card2x.jpg", "icon.webp"])
    let card = try Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("card.webp"))
    #expect(card.prefix(4) == Data("RIFF".utf8))
  }

  /// Runs a program to its end without holding a cooperative thread; its output and errors.
  static func run(_ executable: String, _ arguments: [String]) async throws -> (
    status: Int32, output: String, errors: String
  ) {
    let directory = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let outputPath = directory + "/stdout"
    let errorsPath = directory + "/stderr"
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errorsPath, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorsPath))
    let status = try await ChildProcess.run(process)
    return (
      status, try String(contentsOfFile: outputPath, encoding: .utf8),
      try String(contentsOfFile: errorsPath, encoding: .utf8)
    )
  }
}
