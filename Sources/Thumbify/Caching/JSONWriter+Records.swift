// The JSON of the crawl's records and cards, written member by member with the keys in sorted order
// (Unicode scalar order: `icon` < `iconError` < `image`, `siteName` < `stale` < `state`).
//
// Each list must name every stored property of its type under its `Codable` key. `JSONWriterTests`
// holds every type to `JSONEncoder`'s bytes on values whose every optional is set, and checks with
// `Mirror` that those values leave nothing nil or empty: a property added to a type and not here fails
// that test.

extension CrawlRecord: JSONWritable {
  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("error", error)
      json.member("fetch", fetch)
      json.member("icon", icon)
      json.member("iconError", iconError)
      json.member("image", image)
      json.member("imageError", imageError)
      json.member("metadata", metadata)
      json.member("normalizedURL", normalizedURL)
      json.member("outcome", outcome)
      json.member("schema", schema)
      json.member("url", url)
    }
  }
}

extension CrawlRecord.Outcome: JSONWritable {}

extension FetchFacts: JSONWritable {
  func write(to json: inout JSONWriter) {
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

extension PageMetadata: JSONWritable {
  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("author", author)
      json.member("description", description)
      json.member("icon", icon)
      json.member("icons", icons)
      json.member("image", image)
      json.member("images", images)
      json.member("lang", lang)
      json.member("modifiedTime", modifiedTime)
      json.member("oembed", oembed)
      json.member("originalURL", originalURL)
      json.member("publishedTime", publishedTime)
      json.member("siteName", siteName)
      json.member("themeColor", themeColor)
      json.member("title", title)
      json.member("twitterCard", twitterCard)
      json.member("type", type)
      json.member("url", url)
      json.member("video", video)
    }
  }
}

extension ImageCandidate: JSONWritable {
  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("alt", alt)
      json.member("height", height)
      json.member("type", type)
      json.member("url", url)
      json.member("width", width)
    }
  }
}

extension IconCandidate: JSONWritable {
  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("sizes", sizes)
      json.member("type", type)
      json.member("url", url)
    }
  }
}

extension VideoCandidate: JSONWritable {
  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("height", height)
      json.member("type", type)
      json.member("url", url)
      json.member("width", width)
    }
  }
}

extension ThumbnailSet: JSONWritable {
  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("color", color)
      json.member("height", height)
      json.member("placeholder", placeholder)
      json.member("source", source)
      json.member("variants", variants)
      json.member("width", width)
    }
  }
}

extension Thumbnail: JSONWritable {
  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("bytes", bytes)
      json.member("format", format)
      json.member("height", height)
      json.member("name", name)
      json.member("path", path)
      json.member("sha256", sha256)
      json.member("width", width)
    }
  }
}

extension OutputFormat: JSONWritable {}

extension RecordError: JSONWritable {
  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("code", code)
      json.member("message", message)
      json.member("stage", stage)
    }
  }
}

extension Card: JSONWritable {
  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("description", description)
      json.member("domain", domain)
      json.member("error", error)
      json.member("icon", icon)
      json.member("image", image)
      json.member("imageError", imageError)
      json.member("key", key)
      json.member("lang", lang)
      json.member("normalizedURL", normalizedURL)
      json.member("schema", schema)
      json.member("siteName", siteName)
      json.member("stale", stale)
      json.member("state", state)
      json.member("title", title)
      json.member("url", url)
      json.member("video", video)
    }
  }
}

extension Card.State: JSONWritable {}

extension Card.Picture: JSONWritable {
  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("alt", alt)
      json.member("color", color)
      json.member("height", height)
      json.member("placeholder", placeholder)
      json.member("variants", variants)
      json.member("width", width)
    }
  }
}

extension Card.Variant: JSONWritable {
  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("format", format)
      json.member("height", height)
      json.member("name", name)
      json.member("path", path)
      json.member("width", width)
    }
  }
}

extension Card.Video: JSONWritable {
  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("height", height)
      json.member("type", type)
      json.member("url", url)
      json.member("width", width)
    }
  }
}

extension Card.Failure: JSONWritable {
  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("code", code)
      json.member("message", message)
      json.member("stage", stage)
    }
  }
}
