// libFuzzer entry point for the HTTP response-header handling thumbify owns (libcurl parses the
// status line and splits the lines). Built by `scripts/fuzz headers` with ThumbifySystem,
// ThumbifyFetching and ThumbifyExtracting as modules.
import CCurl
import Foundation

@testable import ThumbifyExtracting
@testable import ThumbifyFetching

/// The `now` of every `Retry-After` date, so that a run is reproducible (2026-01-01T00:00:00Z).
private let now = Date(timeIntervalSince1970: 1_767_225_600)

/// Feeds one input, as a response's header block, to the header callback and then to what reads
/// the kept headers.
///
/// The input is cut into lines after each LF, as curl hands them to `CURLOPT_HEADERFUNCTION`
/// (a line starting `HTTP/` begins a new response, as after a redirect hop), and each line goes
/// to `CurlTransfer.receiveHeader`. The kept values then go where the fetcher sends them:
/// `Retry-After` to `RetryPolicy.parseRetryAfter` and the retry delay, `Content-Type` to the
/// extractor's charset choice, `Location` to `FetchTarget` (curl's URL parser) and the scheme
/// sniffer. The validators (`ETag`, `Last-Modified`) are only stored and sent back.
@_cdecl("LLVMFuzzerTestOneInput")
public func headersFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let transfer = CurlTransfer(
    id: 1, request: FetchRequest(url: "https://example.com/", kind: .page), host: "example.com:443",
    bodyLimit: 1 << 20, allowsPrivateNetwork: false, redirectLimit: 5, timeout: .seconds(30))
  let bytes = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(size, 1))
  defer { bytes.deallocate() }
  _ = bytes.initialize(from: UnsafeRawBufferPointer(start: data, count: size).bindMemory(to: CChar.self))
  var start = 0
  while start < size {
    var end = start
    while end < size && bytes[end] != 0x0A { end += 1 }
    end = min(end + 1, size)
    let taken = transfer.receiveHeader(bytes.baseAddress! + start, count: end - start)
    check(taken == end - start || transfer.exceededHeaderLimit, "a header line was refused")
    start = end
  }

  let headers = transfer.headers
  for (name, value) in headers {
    check(CurlTransfer.keptHeaders.contains(name), "kept \(name), which is not a kept header")
    let edges: Set<Character> = [" ", "\t", "\r", "\n", "\r\n"]
    check(value.first.map { !edges.contains($0) } ?? true, "\(name) value not trimmed at the start")
    check(value.last.map { !edges.contains($0) } ?? true, "\(name) value not trimmed at the end")
  }

  if let value = headers["retry-after"] {
    let policy = RetryPolicy()
    let retryAfter = RetryPolicy.parseRetryAfter(value, now: now)
    if let retryAfter {
      check(retryAfter >= .zero, "Retry-After \(value.debugDescription) is negative")
    }
    for attempt in [1, 2, 3, Int(size & 0xFF)] {
      let delay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter)
      check(delay >= .zero, "a negative retry delay")
      if retryAfter != nil {
        check(delay <= policy.maxRetryAfter, "Retry-After \(delay) over the cap")
      }
    }
  }
  if let value = headers["content-type"] {
    _ = CharsetPrescan.charset(inContent: Array(value.utf8))
    let html = Array("<title>caf\u{E9}</title><meta charset=\"utf-8\">".utf8)
    _ = MetadataExtractor(iconTargetSize: 64).extract(
      html: html, pageURL: "https://example.com/", contentType: value)
  }
  if let value = headers["location"] {
    _ = FetchTarget.scheme(of: value)
    _ = try? FetchTarget(value)
    _ = transfer.error(for: CURLE_UNSUPPORTED_PROTOCOL)
  }
  return 0
}

/// Traps (a crash libFuzzer reports with this input) when a promise is broken; unlike
/// `precondition`, `fatalError` keeps its message in an `-O` build.
private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("broken promise: \(message())") }
}
