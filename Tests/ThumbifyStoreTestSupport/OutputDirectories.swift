import Foundation
import ThumbifyStore

/// Removes `path` and, when it was an output directory, its state directory (`testLayout`).
package func removeDirectory(_ path: String) {
  try? FileManager.default.removeItem(atPath: testLayout(path).stateDirectory)
  try? FileManager.default.removeItem(atPath: path)
}

/// The records of `<out>/manifest.jsonl`, in order.
package func readManifest(_ directory: String) throws -> [CrawlRecord] {
  let text = try String(contentsOfFile: directory + "/manifest.jsonl", encoding: .utf8)
  return try text.split(separator: "\n").map {
    try JSONDecoder().decode(CrawlRecord.self, from: Data($0.utf8))
  }
}

/// Every blob file under `<out>/blobs`, relative to `<out>`.
package func blobFiles(_ directory: String) -> Set<String> {
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
