import ThumbifyExtracting

extension PageMetadata {
  /// Page metadata with every property set (and every array non-empty): the JSON round-trip tests
  /// and the rendering merge test hold it to every property.
  package static let complete: PageMetadata = {
    var page = PageMetadata()
    page.title = "Title"
    page.description = "Description"
    page.canonicalURL = "https://example.com/a"
    page.siteName = "Example"
    page.type = "article"
    page.lang = "en"
    page.image = ImageCandidate(
      url: "https://example.com/i.jpg", width: 1200, height: 630, alt: "Alt", type: "image/jpeg")
    page.images = [
      page.image!,
      ImageCandidate(url: "https://example.com/j.png", width: 1, height: 2, alt: "J", type: "image/png"),
    ]
    page.icon = IconCandidate(
      url: "https://example.com/favicon.ico", sizes: "32x32", type: "image/x-icon")
    page.icons = [page.icon!]
    page.video = VideoCandidate(
      url: "https://example.com/v.mp4", type: "video/mp4", width: 640, height: 360, kind: .file,
      duration: 93)
    page.audio = AudioCandidate(
      url: "https://example.com/a.mp3", type: "audio/mpeg", kind: .file, duration: 1800)
    page.oembed = "https://example.com/oembed?url=a"
    page.embed = Embed(
      provider: "Example Video", type: "video", width: 640, height: 360,
      iframeURL: "https://example.com/embed/1")
    page.author = "Author"
    page.publishedTime = "2026-01-01"
    page.modifiedTime = "2026-01-02T03:04:05Z"
    page.publishedTimeText = "4/6/2016"
    page.publishedTimeSource = "meta"
    page.modifiedTimeText = "2026-01-02T03:04:05"
    page.themeColor = "#ffffff"
    page.twitterCard = "summary_large_image"
    return page
  }()
}
