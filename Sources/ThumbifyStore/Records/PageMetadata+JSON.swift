import ThumbifyExtracting
import ThumbifySystem

// The JSON of page metadata, written member by member with the keys in sorted order (the rule and its
// test: CrawlRecord+JSON.swift).

extension PageMetadata: JSONWritable {
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("audio", audio)
      json.member("author", author)
      json.member("canonicalURL", canonicalURL)
      json.member("description", description)
      json.member("embed", embed)
      json.member("icon", icon)
      json.member("icons", icons)
      json.member("image", image)
      json.member("images", images)
      json.member("lang", lang)
      json.member("modifiedTime", modifiedTime)
      json.member("modifiedTimeText", modifiedTimeText)
      json.member("oembed", oembed)
      json.member("publishedTime", publishedTime)
      json.member("publishedTimeSource", publishedTimeSource)
      json.member("publishedTimeText", publishedTimeText)
      json.member("siteName", siteName)
      json.member("themeColor", themeColor)
      json.member("title", title)
      json.member("twitterCard", twitterCard)
      json.member("type", type)
      json.member("video", video)
    }
  }
}

extension ImageCandidate: JSONWritable {
  package func write(to json: inout JSONWriter) {
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
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("sizes", sizes)
      json.member("type", type)
      json.member("url", url)
    }
  }
}

extension AudioCandidate: JSONWritable {
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("duration", duration)
      json.member("kind", kind?.rawValue)
      json.member("type", type)
      json.member("url", url)
    }
  }
}

extension Embed: JSONWritable {
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("height", height)
      json.member("iframeURL", iframeURL)
      json.member("provider", provider)
      json.member("type", type)
      json.member("width", width)
    }
  }
}

extension VideoCandidate: JSONWritable {
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
