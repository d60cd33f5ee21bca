import ThumbifyImaging
import ThumbifySystem

// The JSON of thumbnail sets, written member by member with the keys in sorted order (the rule and its
// test: CrawlRecord+JSON.swift).

extension ThumbnailSet: JSONWritable {
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("color", color)
      json.member("height", height)
      json.member("placeholder", placeholder)
      json.member("profile", profile)
      json.member("source", source)
      json.member("variants", variants)
      json.member("width", width)
    }
  }
}

extension Thumbnail: JSONWritable {
  package func write(to json: inout JSONWriter) {
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

extension ProfileRecord: JSONWritable {
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("converted", converted)
      json.member("description", description)
      json.member("warning", warning)
    }
  }
}

extension ProfileWarningRecord: JSONWritable {
  package func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("code", code)
      json.member("message", message)
    }
  }
}

extension OutputFormat: JSONWritable {}
