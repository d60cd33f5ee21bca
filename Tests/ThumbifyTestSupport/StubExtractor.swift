import Foundation
import ThumbifyExtracting

/// A `MetadataExtracting` double reading `key: value` lines (`title`, `image`, `icon`) instead of HTML.
package struct StubExtractor: MetadataExtracting {
  package init() {}

  package func extract(html: [UInt8], pageURL: String, contentType: String?) -> PageMetadata {
    var metadata = PageMetadata()
    for line in String(decoding: html, as: UTF8.self).split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      guard parts.count == 2 else { continue }
      switch parts[0] {
      case "title": metadata.title = parts[1]
      case "image": metadata.images = (metadata.images ?? []) + [ImageCandidate(url: parts[1])]
      case "icon": metadata.icons = (metadata.icons ?? []) + [IconCandidate(url: parts[1])]
      default: break
      }
    }
    metadata.image = metadata.images?.first
    metadata.icon = metadata.icons?.first
    return metadata
  }
}
