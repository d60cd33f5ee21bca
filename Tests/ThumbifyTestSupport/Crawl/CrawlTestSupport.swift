import Foundation

@testable import Thumbify
@testable import ThumbifyExtracting
@testable import ThumbifyFetching
@testable import ThumbifyImaging
@testable import ThumbifyStore
@testable import ThumbifySystem

/// A fresh temporary directory, removed by the caller with `removeDirectory`.
func makeTemporaryDirectory(_ name: String = "crawl") -> String {
  let path = NSTemporaryDirectory() + "thumbify-\(name)-\(UUID().uuidString)"
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// Removes `path` and, when it was an output directory, its state directory (`testLayout`).
func removeDirectory(_ path: String) {
  try? FileManager.default.removeItem(atPath: testLayout(path).stateDirectory)
  try? FileManager.default.removeItem(atPath: path)
}

/// The records of `<out>/manifest.jsonl`, in order.
func readManifest(_ directory: String) throws -> [CrawlRecord] {
  let text = try String(contentsOfFile: directory + "/manifest.jsonl", encoding: .utf8)
  return try text.split(separator: "\n").map {
    try JSONDecoder().decode(CrawlRecord.self, from: Data($0.utf8))
  }
}

/// Every blob file under `<out>/blobs`, relative to `<out>`.
func blobFiles(_ directory: String) -> Set<String> {
  let root = directory + "/blobs"
  guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
  var files: Set<String> = []
  while let path = enumerator.nextObject() as? String {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
      !isDirectory.boolValue,
      !path.split(separator: "/").last!.hasPrefix(".")
    {
      files.insert("blobs/" + path)
    }
  }
  return files
}

/// Paths of the repository the tests run in.
enum TestPaths {
  /// The repository root, found from this file's path (`Tests/ThumbifyTestSupport/Crawl/`).
  static let repository: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
  }()

  /// `.build/debug/thumbify`, next to the test bundle.
  static let binary: String = {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/thumbify"
    if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    return repository + "/.build/debug/thumbify"
  }()
}
