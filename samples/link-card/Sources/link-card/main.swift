import Foundation
import Thumbify

// link-card <url> <out-dir> [--allow-private-network]
//
// What a server's link-preview handler does with thumbify: one shared provider, the card of one URL
// as JSON on standard output, its image and icon thumbnails written as files (a server would send
// them or put them in its object store). Exits 1 when the page cannot be read.

var arguments = Array(CommandLine.arguments.dropFirst())
var configuration = FetcherConfiguration()
if let flag = arguments.firstIndex(of: "--allow-private-network") {
  // Only for a page on this machine (the test's loopback server); a server keeps the default.
  configuration.allowsPrivateNetwork = true
  configuration.ignoresRobots = true
  arguments.remove(at: flag)
}
guard arguments.count == 2, let url = URL(string: arguments[0]) else {
  FileHandle.standardError.write(Data("usage: link-card <url> <out-dir> [--allow-private-network]\n".utf8))
  exit(64)
}
let outDirectory = URL(fileURLWithPath: arguments[1], isDirectory: true)

do throws(LinkPreviewError) {
  let provider = try LinkMetadataProvider(configuration: configuration)
  let metadata = try await provider.metadata(for: url)

  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
  if let json = try? encoder.encode(metadata) {
    FileHandle.standardOutput.write(json + Data("\n".utf8))
  }

  try? FileManager.default.createDirectory(at: outDirectory, withIntermediateDirectories: true)
  var files: [String] = []
  func write(_ thumbnail: LinkThumbnail) {
    let file = outDirectory.appendingPathComponent("\(thumbnail.name).\(thumbnail.format.fileExtension)")
    if (try? Data(thumbnail.bytes).write(to: file)) != nil {
      files.append("\(file.path) \(thumbnail.width)x\(thumbnail.height)")
    }
  }
  // A page without an image still has a card: only the thumbnails are skipped.
  if metadata.image != nil {
    let thumbnails = try await metadata.imageThumbnails([.card, .card2x])
    thumbnails.variants.forEach(write)
    FileHandle.standardError.write(
      Data("placeholder \(thumbnails.placeholder) color \(thumbnails.color)\n".utf8))
  }
  if metadata.icon != nil, let icon = try? await metadata.iconThumbnail() {
    write(icon)
  }
  for file in files { FileHandle.standardError.write(Data("wrote \(file)\n".utf8)) }
} catch {
  FileHandle.standardError.write(Data("link-card: \(error) (\(error.code))\n".utf8))
  exit(1)
}
