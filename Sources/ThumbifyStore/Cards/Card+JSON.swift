import ThumbifySystem

// The JSON of cards, written member by member with the keys in sorted order (the rule and its
// test: CrawlRecord+JSON.swift).

extension Card: JSONWritable {
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("audio", audio)
      json.member("canonicalURL", canonicalURL)
      json.member("description", description)
      json.member("domain", domain)
      json.member("embed", embed)
      json.member("error", error)
      json.member("icon", icon)
      json.member("image", image)
      json.member("imageError", imageError)
      json.member("incomplete", incomplete)
      json.member("key", key)
      json.member("lang", lang)
      json.member("modifiedTime", modifiedTime)
      if let needsRendering { json.member("needsRendering", needsRendering) }
      json.member("normalizedURL", normalizedURL)
      json.member("originalURL", originalURL)
      json.member("publishedTime", publishedTime)
      json.member("publishedTimeSource", publishedTimeSource)
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
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("alt", alt)
      json.member("color", color)
      json.member("height", height)
      json.member("placeholder", placeholder)
      json.member("url", url)
      json.member("variants", variants)
      json.member("width", width)
    }
  }
}

extension Card.Variant: JSONWritable {
  package func write(to json: inout JSONWriter) {
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
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("duration", duration)
      json.member("height", height)
      json.member("kind", kind?.rawValue)
      json.member("type", type)
      json.member("url", url)
      json.member("width", width)
    }
  }
}

extension Card.Audio: JSONWritable {
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("duration", duration)
      json.member("kind", kind?.rawValue)
      json.member("type", type)
      json.member("url", url)
    }
  }
}

extension Card.Failure: JSONWritable {
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("code", code)
      json.member("message", message)
      json.member("stage", stage)
    }
  }
}
