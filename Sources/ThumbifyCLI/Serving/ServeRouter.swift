import Foundation
import Synchronization
import Thumbify

/// `thumbify serve`'s routes over a `CardService`: authentication, limits, status codes and cache
/// headers (docs/serve.md). Called on libmicrohttpd's threads; a miss answers later.
final class ServeRouter: Sendable {
  let service: CardService
  let metrics = ServeMetrics()
  /// Directories whose `blobs/` and `cards/` are served: the service's output, then the crawl's.
  private let directories: [String]
  /// Bearer tokens accepted; empty: no authentication.
  private let tokens: Set<String>
  private let limiter: RateLimiter
  private let draining = Atomic<Bool>(false)

  init(
    service: CardService, outputDirectory: String, cardsDirectory: String?, tokens: Set<String>,
    perMinute: Int
  ) {
    self.service = service
    directories = [outputDirectory] + (cardsDirectory.map { [$0] } ?? [])
    self.tokens = tokens
    limiter = RateLimiter(perMinute: perMinute)
  }

  var isDraining: Bool { draining.load(ordering: .relaxed) }
  /// From now on, card requests are answered 503 and `/healthz` says so.
  func startDraining() { draining.store(true, ordering: .relaxed) }

  func handle(_ request: HTTPRequest) -> HTTPHandling {
    guard request.method == "GET" || request.method == "HEAD" else {
      var response = Self.error(405, code: "methodNotAllowed", message: "Only GET and HEAD are served.")
      response.headers.append(("Allow", "GET, HEAD"))
      return .now(response)
    }
    let parsed: APIRequest
    switch APIRequest.parse(request.target) {
    case .success(let request): parsed = request
    case .failure(let failure): return .now(Self.badRequest(failure))
    }
    if case .health = parsed {
      var response =
        isDraining
        ? Self.error(503, code: "stopping", message: "The server is stopping.")
        : HTTPResponse(
          status: 200, headers: [("Content-Type", "text/plain"), ("Cache-Control", "no-store")],
          body: .bytes(Array("ok\n".utf8)))
      response.route = "healthz"
      return .now(response)
    }
    if !tokens.isEmpty {
      let token = request.authorization.flatMap { value -> String? in
        value.hasPrefix("Bearer ") ? String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces) : nil
      }
      guard let token, tokens.contains(token) else {
        var response = Self.error(401, code: "unauthorized", message: "A valid bearer token is needed.")
        response.headers.append(("WWW-Authenticate", "Bearer"))
        return .now(response)
      }
    }
    switch parsed {
    case .metrics:
      var response = HTTPResponse(
        status: 200, headers: [("Content-Type", "text/plain; version=0.0.4"), ("Cache-Control", "no-store")],
        body: .bytes(
          Array(
            metrics.render(
              liveFetches: service.liveFetchesInFlight, isDraining: isDraining
            ).utf8)))
      response.route = "metrics"
      return .now(response)
    case .blob(let path):
      return .now(
        file(path, route: "blobs", request: request, cacheControl: "public, max-age=31536000, immutable"))
    case .cardFile(let path):
      return .now(file(path, route: "cards", request: request, cacheControl: "public, max-age=300"))
    case .card(let url, let variants):
      if isDraining {
        var response = Self.error(503, code: "stopping", message: "The server is stopping.")
        response.headers.append(("Retry-After", "5"))
        return .now(response)
      }
      let client = request.authorization ?? request.client
      if let wait = limiter.admit(client, now: Date().timeIntervalSince1970) {
        var response = Self.error(
          429, code: "rateLimited", message: "Too many requests from this client; try again later.")
        response.headers.append(("Retry-After", String(wait)))
        return .now(response)
      }
      let service = service
      let ifNoneMatch = request.ifNoneMatch
      // A hit is answered here, on libmicrohttpd's thread; only a miss waits in Swift concurrency.
      do throws(CardServiceError) {
        if let answer = try service.knownCard(for: url) {
          return .now(Self.card(answer, variants: variants, ifNoneMatch: ifNoneMatch))
        }
      } catch {
        return .now(Self.serviceError(error))
      }
      return .later {
        do throws(CardServiceError) {
          let answer = try await service.card(for: url)
          return Self.card(answer, variants: variants, ifNoneMatch: ifNoneMatch)
        } catch {
          return Self.serviceError(error)
        }
      }
    case .health, .notFound:
      return .now(Self.error(404, code: "notFound", message: "No such resource."))
    }
  }

  // MARK: - Answers

  private static func card(_ answer: CardService.Answer, variants: [String]?, ifNoneMatch: String?)
    -> HTTPResponse
  {
    var bytes = answer.bytes
    var etag = answer.etag
    if let variants {
      guard let filtered = filter(bytes, keeping: Set(variants)) else {
        return error(400, code: "badVariants", message: "The card could not be filtered by 'variants'.")
      }
      bytes = filtered
      etag =
        "\"" + String(etag.dropFirst().dropLast()) + "-"
        + SHA256Digest.hex(of: Array(variants.joined(separator: ",").utf8)).prefix(8) + "\""
    }
    let isFailure = answer.failure != nil
    var headers: [(String, String)] = [
      ("Content-Type", "application/json"), ("ETag", etag),
      ("Cache-Control", isFailure ? "public, max-age=60" : "public, max-age=3600"),
      ("X-Thumbify-Source", answer.source.rawValue),
    ]
    var response: HTTPResponse
    if let failure = answer.failure {
      response = error(422, code: failure.code, message: failure.message, stage: failure.stage)
      response.headers = headers
    } else if let ifNoneMatch,
      ifNoneMatch.split(separator: ",").contains(where: {
        $0.trimmingCharacters(in: .whitespaces) == etag || $0.trimmingCharacters(in: .whitespaces) == "*"
      })
    {
      headers.removeAll { $0.0 == "Content-Type" }
      response = HTTPResponse(status: 304, headers: headers)
    } else {
      response = HTTPResponse(status: 200, headers: headers, body: .bytes(bytes))
    }
    response.route = "card"
    response.logFields["source"] = answer.source.rawValue
    return response
  }

  /// The card's JSON with only the picture variants named (other fields as they are); nil when it is
  /// not a card.
  static func filter(_ bytes: [UInt8], keeping names: Set<String>) -> [UInt8]? {
    guard var card = try? JSONDecoder().decode(Card.self, from: Data(bytes)) else { return nil }
    card.image?.variants.removeAll { !names.contains($0.name) }
    card.icon?.variants.removeAll { !names.contains($0.name) }
    guard var encoded = try? JSONWriter.encode(card) else { return nil }
    encoded.append(UInt8(ascii: "\n"))
    return encoded
  }

  private static func serviceError(_ error: CardServiceError) -> HTTPResponse {
    var response: HTTPResponse
    switch error {
    case .invalidURL, .privateAddress:
      response = Self.error(400, code: error.code, message: error.description)
    case .busy, .stopping:
      response = Self.error(503, code: error.code, message: error.description)
      response.headers.append(("Retry-After", "1"))
    case .timedOut:
      response = Self.error(504, code: error.code, message: error.description)
    case .storage, .setup:
      response = Self.error(500, code: error.code, message: error.description)
    }
    response.route = "card"
    return response
  }

  private static func badRequest(_ failure: APIRequest.Failure) -> HTTPResponse {
    var response: HTTPResponse
    switch failure {
    case .missingURL:
      response = error(400, code: "invalidURL", message: "The query needs 'url=<an http or https URL>'.")
    case .repeatedParameter(let name):
      response = error(400, code: "badQuery", message: "The parameter '\(name)' is given twice.")
    case .unknownParameter(let name):
      response = error(400, code: "badQuery", message: "Unknown parameter '\(name)'.")
    case .badEscape:
      response = error(400, code: "badQuery", message: "The query string has a malformed escape.")
    case .tooLong(let limit):
      response = error(414, code: "tooLong", message: "The URL is longer than \(limit) bytes.")
    case .badVariants:
      response = error(
        400, code: "badVariants", message: "'variants' is a comma-separated list of variant names.")
    }
    response.route = "card"
    return response
  }

  /// An error answer: `{"error": {"code": …, "message": …, "stage": …}}`, the manifest's `error` shape.
  static func error(_ status: Int, code: String, message: String, stage: String? = nil) -> HTTPResponse {
    let body =
      (try? JSONWriter.encode(ErrorBody(error: RecordError(code: code, message: message, stage: stage))))
      ?? []
    var response = HTTPResponse(
      status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
      body: .bytes(body + [UInt8(ascii: "\n")]))
    response.logFields["code"] = code
    return response
  }

  /// A file of the output (or the crawl's) directory; `path` is checked by `APIRequest`.
  private func file(_ path: String, route: String, request: HTTPRequest, cacheControl: String) -> HTTPResponse
  {
    for directory in directories {
      let full = FilePath(directory).appending(path).string
      let descriptor = open(full, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { continue }
      var status = stat()
      guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
        close(descriptor)
        continue
      }
      let name = FilePath(path).lastComponent ?? path
      let etag =
        "\"" + name.prefix { $0 != "." }.prefix(32)
        + (route == "cards" ? "-\(status.st_mtim.tv_sec)-\(status.st_size)" : "") + "\""
      var headers = [
        ("Content-Type", Self.contentType(of: name)), ("Cache-Control", cacheControl), ("ETag", etag),
      ]
      if request.ifNoneMatch == etag {
        close(descriptor)
        headers.removeFirst()
        var response = HTTPResponse(status: 304, headers: headers)
        response.route = route
        return response
      }
      var response = HTTPResponse(
        status: 200, headers: headers, body: .file(descriptor: descriptor, size: UInt64(status.st_size)))
      response.route = route
      return response
    }
    var response = Self.error(404, code: "notFound", message: "No such file.")
    response.route = route
    return response
  }

  private static func contentType(of name: String) -> String {
    switch FilePath(name).extension {
    case "json": "application/json"
    case "webp": "image/webp"
    case "jpg": "image/jpeg"
    case "png": "image/png"
    case "avif": "image/avif"
    default: "application/octet-stream"
    }
  }
}

/// `{"error": {…}}`, written with the crawl's JSON writer (sorted keys).
private struct ErrorBody: JSONWritable {
  var error: RecordError

  func write(to json: inout JSONWriter) {
    json.object { json in json.member("error", error) }
  }
}
