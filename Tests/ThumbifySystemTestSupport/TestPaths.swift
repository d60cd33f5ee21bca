import Foundation

/// A fresh temporary directory, removed by the caller (with `removeDirectory` of the store's support
/// when it became an output directory, which has a state directory too).
package func makeTemporaryDirectory(_ name: String = "crawl") -> String {
  let path = NSTemporaryDirectory() + "thumbify-\(name)-\(UUID().uuidString)"
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// Paths of the repository the tests run in.
package enum TestPaths {
  /// The repository root, found from this file's path (`Tests/ThumbifySystemTestSupport/`).
  package static let repository: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
  }()

  /// `.build/debug/thumbify`, next to the test bundle.
  package static let binary: String = {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/thumbify"
    if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    return repository + "/.build/debug/thumbify"
  }()
}
