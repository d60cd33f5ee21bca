import Testing
import ThumbifySystemTestSupport

@testable import ThumbifyExtracting

/// Issue 35: video and audio from every source a page uses, each a playable file (with its MIME
/// type) or a player page, with sizes and running time where given (docs/metadata.md, "Video", "Audio").
@Suite("Video and audio", .offThePool)
struct MediaExtractionTests {
  private func extract(_ html: String, url: String = ExtractingTestSupport.pageURL) -> PageMetadata {
    ExtractingTestSupport.extract(html, url: url)
  }

  @Test func openGraphVideoURLVariantsAndAFlashGroupSkipped() {
    // Given a Flash group first, then a group with an https secure_url
    let page = """
      <meta property="og:video" content="https://old.example/player.swf"><meta property="og:video:type" content="application/x-shockwave-flash">
      <meta property="og:video" content="http://cdn.example/v/1.webm"><meta property="og:video:secure_url" content="https://cdn.example/v/1.webm">
      <meta property="og:video:width" content="1280px"><meta property="og:video:height" content="720">
      """
    // Then the Flash group is skipped and the second is a file whose type the extension names
    #expect(
      extract(page).video
        == VideoCandidate(
          url: "https://cdn.example/v/1.webm", type: "video/webm", width: 1280, height: 720, kind: .file))
    // An og:video of type text/html is a player.
    let player =
      "<meta property=og:video content=https://p.example/e/9><meta property=og:video:type content=text/html>"
    #expect(extract(player).video?.kind == .player)
    // An HLS playlist is a file.
    #expect(
      extract("<meta property=og:video content=/live/index.m3u8>").video?.type
        == "application/vnd.apple.mpegurl")
    // A URL saying nothing and no type: kind unknown.
    #expect(extract("<meta property=og:video content=/watch/7>").video?.kind == nil)
  }

  @Test func twitterPlayerThenItsStream() {
    let both = """
      <meta name=twitter:player content=https://p.example/e/1><meta name=twitter:player:width content=640>
      <meta name=twitter:player:height content=360><meta name=twitter:player:stream content=https://s.example/1.mp4>
      """
    #expect(
      extract(both).video
        == VideoCandidate(
          url: "https://p.example/e/1", type: "text/html", width: 640, height: 360, kind: .player))
    let stream = """
      <meta name=twitter:player:stream content=https://s.example/1><meta name=twitter:player:stream:content_type content="video/mp4; codecs=avc1">
      """
    #expect(
      extract(stream).video
        == VideoCandidate(url: "https://s.example/1", type: "video/mp4; codecs=avc1", kind: .file))
  }

  @Test func jsonLDVideoObjectEmbedThenContentWithDurationAndThumbnail() {
    let object = """
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"VideoObject","name":"Clip",
      "contentUrl":"https://media.example/clip.mp4","embedUrl":"https://media.example/embed/clip",
      "thumbnailUrl":["https://media.example/clip.jpg"],"duration":"PT1H2M3S","uploadDate":"2024-05-06",
      "width":1920,"height":"1080"}</script>
      """
    let metadata = extract(object)
    #expect(
      metadata.video
        == VideoCandidate(
          url: "https://media.example/embed/clip", type: "text/html", width: 1920, height: 1080,
          kind: .player,
          duration: 3723))
    // The thumbnail is an image candidate; uploadDate is the publication date.
    #expect(metadata.images?.map(\.url).contains("https://media.example/clip.jpg") == true)
    #expect(metadata.publishedTime == "2024-05-06")
    // Without embedUrl, the content URL with its encodingFormat.
    let content = """
      <script type="application/ld+json">{"@type":"Article","headline":"A","video":{"@type":"VideoObject",
      "contentUrl":"/v/a","encodingFormat":"video/mp4","thumbnailUrl":"/v/a.jpg","duration":"PT90S"}}</script>
      """
    let nested = extract(content)
    #expect(
      nested.video
        == VideoCandidate(url: "https://www.example.com/v/a", type: "video/mp4", kind: .file, duration: 90))
    #expect(nested.images?.map(\.url) == ["https://www.example.com/v/a.jpg"])
  }

  @Test func videoElementSourceAndPoster() {
    let page = """
      <video width=800 height=450 poster="/still.jpg" controls>
        <source src="javascript:alert(1)" type="video/mp4"><source src="/media/talk.webm" type="video/webm">
      </video>
      """
    let metadata = extract(page)
    #expect(
      metadata.video
        == VideoCandidate(
          url: "https://www.example.com/media/talk.webm", type: "video/webm", width: 800, height: 450,
          kind: .file))
    #expect(metadata.image?.url == "https://www.example.com/still.jpg")
    // A <source> outside <video>/<audio> (in <picture>) is no media.
    #expect(extract("<picture><source src=/a.mp4 type=video/mp4></picture>").video == nil)
    // <video src> beats its sources; a <video> inside <template> is not read.
    #expect(
      extract("<video src=/x.mp4><source src=/y.mp4></video>").video?.url == "https://www.example.com/x.mp4")
    #expect(extract("<template><video src=/x.mp4></video></template>").video == nil)
  }

  @Test func sourcesInPrecedenceOrder() {
    let og = "<meta property=og:video content=/og.mp4>"
    let twitter = "<meta name=twitter:player content=/tw>"
    let ld = #"<script type="application/ld+json">{"@type":"VideoObject","embedUrl":"/ld"}</script>"#
    let element = "<video src=/el.mp4></video>"
    #expect(extract(element + ld + twitter + og).video?.url == "https://www.example.com/og.mp4")
    #expect(extract(element + ld + twitter).video?.url == "https://www.example.com/tw")
    #expect(extract(element + ld).video?.url == "https://www.example.com/ld")
    #expect(extract(element, url: "https://youtu.be/dQw4w9WgXcQ").video?.url == "https://youtu.be/el.mp4")
  }

  @Test func audioFromJSONLDPodcastEpisodeAndAudioElements() {
    let object = """
      <script type="application/ld+json">{"@type":"AudioObject","contentUrl":"https://pod.example/e1.mp3","duration":"PT30M"}</script>
      """
    #expect(
      extract(object).audio
        == AudioCandidate(url: "https://pod.example/e1.mp3", type: "audio/mpeg", kind: .file, duration: 1800))
    let episode = """
      <script type="application/ld+json">{"@type":"PodcastEpisode","name":"Ep 2","associatedMedia":{"@type":"MediaObject",
      "contentUrl":"https://pod.example/e2","encodingFormat":"audio/ogg"}}</script>
      """
    #expect(
      extract(episode).audio == AudioCandidate(url: "https://pod.example/e2", type: "audio/ogg", kind: .file))
    let embedOnly =
      #"<script type="application/ld+json">{"@type":"AudioObject","embedUrl":"https://w.example/p/3"}</script>"#
    #expect(extract(embedOnly).audio?.kind == .player)
    let element = "<audio controls><source src=/ep4.opus type=audio/ogg><source src=/ep4.mp3></audio>"
    #expect(
      extract(element).audio
        == AudioCandidate(url: "https://www.example.com/ep4.opus", type: "audio/ogg", kind: .file))
    // og:audio wins over everything else; an <audio> is not a video.
    #expect(
      extract(element + "<meta property=og:audio content=/og.mp3>").audio?.url
        == "https://www.example.com/og.mp3")
    #expect(extract(element).video == nil)
  }

  @Test func boundedMediaElements() {
    // Many <video> elements without a usable URL, then one with: only the first 16 are kept.
    let empty = String(repeating: "<video><source src=javascript:0></video>", count: 40)
    #expect(extract(empty + "<video src=/late.mp4></video>").video == nil)
    let sources = String(repeating: "<source src=data:x>", count: 40)
    #expect(extract("<video>\(sources)<source src=/late.mp4></video>").video == nil)
  }

  @Test(arguments: [
    ("PT1H2M3S", 3723), ("PT90S", 90), ("P0DT4M", 240), ("PT1M30.5S", 90), ("93", 93), ("pt2m", 120),
    ("P1W", 604_800),
  ])
  func isoDurations(text: String, seconds: Int) {
    #expect(MediaType.seconds(text) == seconds)
  }

  @Test(arguments: [
    "", "P", "PT", "PT0S", "0", "-5", "P1Y", "PT5X", "T5M", "PT1H2", "P1000W", "1e9", "PT1M1M1Mx",
  ])
  func impossibleDurationsAreLeftOut(text: String) {
    #expect(MediaType.seconds(text) == nil)
  }
}
