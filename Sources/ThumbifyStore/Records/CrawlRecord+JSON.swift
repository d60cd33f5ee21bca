import ThumbifySystem

// The JSON of the crawl's records, written member by member with the keys in sorted order (Unicode
// scalar order: `icon` < `iconError` < `image`, `siteName` < `stale` < `state`); the files named
// `+JSON` next to the other types do the same for cards, page metadata and thumbnail sets.
//
// Each list must name every stored property of its type under its `Codable` key. `JSONWriterTests`
// holds every type to `JSONEncoder`'s bytes on values whose every optional is set, and checks with
// `Mirror` that those values leave nothing nil or empty: a property added to a type and not here fails
// that test.

extension CrawlRecord: JSONWritable {
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("error", error)
      json.member("fetch", fetch)
      json.member("icon", icon)
      json.member("iconError", iconError)
      json.member("image", image)
      json.member("imageError", imageError)
      json.member("incomplete", incomplete)
      json.member("metadata", metadata)
      if let needsRendering { json.member("needsRendering", needsRendering) }
      json.member("normalizedURL", normalizedURL)
      json.member("oembedError", oembedError)
      json.member("originalURL", originalURL)
      json.member("outcome", outcome)
      json.member("render", render)
      json.member("renderError", renderError)
      json.member("schema", schema)
      json.member("url", url)
    }
  }
}

extension CrawlRecord.Outcome: JSONWritable {}

extension FetchFacts: JSONWritable {
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("duration", duration)
      json.member("etag", etag)
      json.member("fetchedAt", fetchedAt)
      json.member("finalURL", finalURL)
      json.member("lastModified", lastModified)
      json.member("redirects", redirects)
      json.member("status", status)
    }
  }
}

extension RecordError: JSONWritable {
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("code", code)
      json.member("message", message)
      json.member("stage", stage)
    }
  }
}
