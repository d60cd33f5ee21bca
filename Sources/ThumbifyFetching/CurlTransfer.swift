import CCurl
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What one finished curl transfer produced, before status and retry policy.
struct CurlCompletion: Sendable {
  var status: Int
  /// Every URL requested, in order; the last is the final URL.
  var urls: [String]
  /// The final response's headers, names lowercased.
  var headers: [String: String]
  var body: [UInt8]
  /// True when the body was cut at the cap (robots.txt keeps what fit).
  var isTruncated: Bool
  /// `1.0`, `1.1`, `2` or `3`.
  var httpVersion: String?
  /// Seconds curl spent on the transfer (`CURLINFO_TOTAL_TIME`).
  var duration: Double
  /// Where a 3xx answer points, made absolute by curl (`CURLINFO_REDIRECT_URL`).
  var redirectURL: String?
}

/// One request's state while the multi loop runs it; the C callbacks reach it through an
/// `Unmanaged` pointer set as their user data, which lives exactly as long as the easy handle.
///
/// Created on the caller's thread, then confined to the multi loop's thread: after
/// `CurlMultiLoop.submit` only the loop and curl's callbacks (on the loop) touch its vars.
final class CurlTransfer: @unchecked Sendable {
  // Confined to the multi loop's thread once submitted (its vars and callbacks); `ticket` is
  // Sendable and the `let`s are immutable.
  let id: UInt64
  let request: FetchRequest
  let host: String
  let ticket = TransferTicket()
  let bodyLimit: Int
  /// True when a body over the cap is cut and kept (robots) instead of failing the transfer.
  let keepsTruncatedBody: Bool
  let allowsPrivateNetwork: Bool
  /// Addresses the guard lets through anyway.
  let exemptAddresses: Set<IPAddress>
  let redirectLimit: Int
  /// This transfer's share of the request's total timeout (redirect hops share it).
  let timeout: Duration

  var easy: CurlEasyHandle?
  private(set) var body: [UInt8] = []
  private(set) var isTruncated = false
  private(set) var exceededLimit = false
  /// Set when the response's headers passed `Self.headerLimit`; the transfer is then aborted.
  private(set) var exceededHeaderLimit = false
  /// Between a response's status line and the blank line that ends its headers.
  private var isReadingHeaders = false
  /// The most header bytes one response may send (curl's own cap on one line is 100 KB).
  static let headerLimit = 256 << 10
  private(set) var headers: [String: String] = [:]
  private(set) var urls: [String] = []
  private var headerBytes = 0
  /// The address the SSRF guard refused, reported instead of curl's connect error.
  private(set) var blockedAddress: String?
  /// True when the guard let a socket through since the last response began: a failed
  /// connect is then curl's to report (happy eyeballs may refuse one family and try another).
  private var openedAllowedSocket = false
  /// The scheme of the last `Location` header, to name an unsupported redirect target.
  private(set) var lastLocation: String?
  let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

  init(
    id: UInt64, request: FetchRequest, host: String, bodyLimit: Int, allowsPrivateNetwork: Bool,
    exemptAddresses: Set<IPAddress> = [], redirectLimit: Int, timeout: Duration
  ) {
    self.timeout = timeout
    self.exemptAddresses = exemptAddresses
    self.redirectLimit = redirectLimit
    self.id = id
    self.request = request
    self.host = host
    self.bodyLimit = bodyLimit
    self.keepsTruncatedBody = request.kind == .robots
    self.allowsPrivateNetwork = allowsPrivateNetwork
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
  }

  deinit {
    easy = nil
    errorBuffer.deallocate()
  }

  /// curl's detail message for the last error, if it wrote one.
  var errorDetail: String {
    String(cString: errorBuffer).trimmingCharacters(in: [" ", "\n", "\r"])
  }

  /// The write callback's body: appends decoded bytes up to the cap.
  func receiveBody(_ data: UnsafeMutablePointer<CChar>, count: Int) -> Int {
    let room = bodyLimit - body.count
    guard count <= room else {
      data.withMemoryRebound(to: UInt8.self, capacity: count) {
        body.append(contentsOf: UnsafeBufferPointer(start: $0, count: max(0, room)))
      }
      if keepsTruncatedBody { isTruncated = true } else { exceededLimit = true }
      return 0  // curl aborts with CURLE_WRITE_ERROR
    }
    data.withMemoryRebound(to: UInt8.self, capacity: count) {
      body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
    }
    return count
  }

  /// The response headers thumbify uses; others are skipped without making strings.
  static let keptHeaders = ["content-type", "etag", "last-modified", "location", "retry-after"]

  /// The entry of `keptHeaders` that `name` spells in any case, or nil (compared as bytes: making a
  /// lowercased String of every header line was ~1 % of a crawl's CPU).
  static func keptHeader(named name: UnsafeRawBufferPointer) -> String? {
    keptHeaders.first { kept in
      kept.utf8.count == name.count
        && zip(kept.utf8, name).allSatisfy { $0 == ($1 >= 0x41 && $1 <= 0x5A ? $1 | 0x20 : $1) }
    }
  }

  /// The header callback's body: one header line of the current response, parsed as bytes.
  func receiveHeader(_ data: UnsafeMutablePointer<CChar>, count: Int) -> Int {
    let line = UnsafeRawBufferPointer(start: data, count: count)
    if count >= 5 && line[0] == 0x48 && line[1] == 0x54 && line[2] == 0x54 && line[3] == 0x50
      && line[4] == 0x2F
    {
      // "HTTP/": a new response (a redirect hop or an interim one) starts.
      headers = [:]
      headerBytes = 0
      isReadingHeaders = true
      openedAllowedSocket = false
      body.removeAll(keepingCapacity: true)
      if let url = easy?.info(string: CURLINFO_EFFECTIVE_URL), urls.last != url { urls.append(url) }
      return count
    }
    headerBytes += count
    if count <= 2 { isReadingHeaders = false }  // the blank line after the headers
    guard headerBytes <= Self.headerLimit else {
      // Endless headers are a body in disguise: the same size error, not curl's write error.
      exceededHeaderLimit = true
      return 0
    }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon <= 32 else { return count }
    guard let name = Self.keptHeader(named: UnsafeRawBufferPointer(rebasing: line[..<colon])) else {
      return count
    }
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
    var start = colon + 1
    var end = count
    while start < end && isSpace(line[start]) { start += 1 }
    while end > start && isSpace(line[end - 1]) { end -= 1 }
    // A value with a control byte other than HTAB (a bare CR, ESC, …) is not a field value (RFC 9110
    // §5.5): it is ignored, as if absent. An ETag or Last-Modified is sent back verbatim in the next
    // conditional request, where a bare CR would start a header of the server's choosing.
    guard !line[start..<end].contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
      return count
    }
    let value = String(decoding: line[start..<end], as: UTF8.self)
    headers[name] = value
    if name == "location" { lastLocation = value }
    return count
  }

  /// The open-socket callback's body: the SSRF guard, then `socket(2)`.
  func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
    let socketAddress = thumbify_curl_sockaddr_address(address)
    if !allowsPrivateNetwork, let socketAddress {
      guard let ip = IPAddress(socketAddress: socketAddress) else {
        blockedAddress = "of family \(address.pointee.family)"
        return CURL_SOCKET_BAD
      }
      if !exemptAddresses.contains(ip), let range = SpecialAddressRanges.reservedRange(containing: ip) {
        blockedAddress = "\(ip) in \(range)"
        return CURL_SOCKET_BAD
      }
    }
    openedAllowedSocket = true
    let descriptor = socket(
      address.pointee.family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue),
      address.pointee.protocol)
    return descriptor < 0 ? CURL_SOCKET_BAD : descriptor
  }

  /// The completion handed to the caller once curl reports `CURLMSG_DONE` with `code`.
  func finish(code: CURLcode) -> Result<CurlCompletion, FetchError> {
    let usable = code == CURLE_OK || (code == CURLE_WRITE_ERROR && isTruncated)
    ticket.recordTransferTime(seconds: easy?.info(double: CURLINFO_TOTAL_TIME) ?? 0)
    guard usable, let easy else { return .failure(error(for: code)) }
    let version: String? =
      switch easy.info(long: CURLINFO_HTTP_VERSION) {
      case CURL_HTTP_VERSION_1_0: "1.0"
      case CURL_HTTP_VERSION_1_1: "1.1"
      case CURL_HTTP_VERSION_2_0: "2"
      case CURL_HTTP_VERSION_3: "3"
      default: nil
      }
    if let url = easy.info(string: CURLINFO_EFFECTIVE_URL), urls.last != url { urls.append(url) }
    return .success(
      CurlCompletion(
        status: easy.info(long: CURLINFO_RESPONSE_CODE) ?? 0, urls: urls.isEmpty ? [request.url] : urls,
        headers: headers, body: body, isTruncated: isTruncated, httpVersion: version,
        duration: easy.info(double: CURLINFO_TOTAL_TIME) ?? 0,
        redirectURL: easy.info(string: CURLINFO_REDIRECT_URL)))
  }

  /// Maps a failed transfer's `CURLcode` onto `FetchError`, with curl's own message.
  func error(for code: CURLcode) -> FetchError {
    if exceededLimit { return .tooLarge(limit: bodyLimit) }
    if exceededHeaderLimit { return .tooLarge(limit: Self.headerLimit) }
    if let blockedAddress, !openedAllowedSocket { return .blockedPrivateAddress(blockedAddress) }
    let summary = String(cString: curl_easy_strerror(code))
    let detail = errorDetail
    // One header line over curl's buffer cap fails as "out of memory" (curl 7.88: "Avoided giant
    // realloc for header", logged only): a response too large, not a machine out of memory.
    if code == CURLE_OUT_OF_MEMORY, isReadingHeaders { return .tooLarge(limit: 100 << 10) }
    let message = detail.isEmpty || detail == summary ? summary : "\(summary) (\(detail))"
    return FetchError(
      curlCode: code, message: message, url: lastLocation ?? request.url, redirectLimit: redirectLimit)
  }
}

/// The `CURLOPT_WRITEFUNCTION` trampoline.
let curlWriteCallback:
  @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    guard let data, let context else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receiveBody(
      data, count: size * count)
  }

/// The `CURLOPT_HEADERFUNCTION` trampoline.
let curlHeaderCallback:
  @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    guard let data, let context else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receiveHeader(
      data, count: size * count)
  }

/// The `CURLOPT_OPENSOCKETFUNCTION` trampoline.
let curlOpenSocketCallback:
  @convention(c) (UnsafeMutableRawPointer?, curlsocktype, UnsafeMutablePointer<curl_sockaddr>?) ->
    curl_socket_t = {
      context, _, address in
      guard let context, let address else { return CURL_SOCKET_BAD }
      return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().openSocket(address)
    }
