import Synchronization

/// The production fetcher: one libcurl multi loop, thumbify's per-host queue, the SSRF
/// guard, robots.txt, retries and conditional requests.
///
/// ```swift
/// let fetcher = try CurlFetcher()
/// let page = try await fetcher.fetch(FetchRequest(url: "https://example.org/", kind: .page))
/// ```
///
/// Cancelling the calling task removes the transfer from curl and throws `.cancelled`.
public final class CurlFetcher: Fetching {
  public let configuration: FetcherConfiguration
  /// The robots.txt cache; export its entries to reuse validators in the next run.
  public let robots: RobotsCache
  private let loop: CurlMultiLoop
  private let health: HostHealth
  private let nextID = Atomic<UInt64>(1)

  /// Starts the multi loop thread.
  /// - Throws: `FetchError.other` when libcurl cannot be initialised.
  public init(configuration: FetcherConfiguration = FetcherConfiguration(), robots: RobotsCache? = nil)
    throws(FetchError)
  {
    self.configuration = configuration
    self.robots = robots ?? RobotsCache()
    loop = try CurlMultiLoop(configuration: configuration)
    health = HostHealth(limit: configuration.retry.hostFailureLimit)
  }

  deinit {
    loop.shutdown()
  }

  /// Cancels every transfer and stops the loop thread; later fetches throw `.cancelled`.
  public func shutdown() {
    loop.shutdown()
  }

  /// Fetches `request` politely and safely, retrying transient failures.
  ///
  /// - Returns: the 2xx response, or a 304 with `isNotModified` when validators were sent.
  /// - Throws: `FetchError`; non-2xx statuses are `.httpStatus`.
  public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
    let target = try FetchTarget(request.url)
    guard !health.isSkipped(target.hostKey) else { throw .hostSkipped(target.host) }
    if request.kind == .page && !configuration.ignoresRobots {
      let rules = await robots.rules(for: target.origin) { [self] robotsRequest in
        await self.attempt(robotsRequest).mapError(\.error)
      }
      if let delay = rules.crawlDelay, delay > 0 {
        let capped = min(Duration.milliseconds(Int(delay * 1000)), configuration.maxCrawlDelay)
        loop.setDelay(max(capped, configuration.perHostDelay), host: target.hostKey)
      }
      guard rules.allows(target.pathAndQuery) else { throw .blockedByRobots(request.url) }
    }
    var attemptNumber = 1
    while true {
      if Task.isCancelled { throw .cancelled }
      switch await attempt(request) {
      case .success(let response):
        health.recordSuccess(target.hostKey)
        return response
      case .failure(let failure):
        guard RetryPolicy.isRetryable(failure.error) else { throw failure.error }
        health.recordFailure(target.hostKey)
        guard attemptNumber < configuration.retry.maxAttempts else { throw failure.error }
        guard !health.isSkipped(target.hostKey) else { throw .hostSkipped(target.host) }
        let delay = configuration.retry.delay(afterAttempt: attemptNumber, retryAfter: failure.retryAfter)
        if failure.retryAfter != nil { loop.postpone(host: target.hostKey, until: .now + delay) }
        do { try await Task.sleep(for: delay) } catch { throw .cancelled }
        attemptNumber += 1
      }
    }
  }

  /// A failed attempt and the server's `Retry-After`, if it sent one.
  struct AttemptFailure: Error {
    var error: FetchError
    var retryAfter: Duration?
  }

  /// One transfer, no robots and no retries; non-2xx statuses (except 304 to a conditional
  /// request) become `.httpStatus`.
  func attempt(_ request: FetchRequest) async -> Result<FetchResponse, AttemptFailure> {
    let target: FetchTarget
    do { target = try FetchTarget(request.url) } catch { return .failure(AttemptFailure(error: error)) }
    let transfer = CurlTransfer(
      id: nextID.add(1, ordering: .relaxed).oldValue, request: request, host: target.hostKey,
      bodyLimit: configuration.bodyLimit(for: request.kind),
      allowsPrivateNetwork: configuration.allowsPrivateNetwork, redirectLimit: configuration.maxRedirects)
    let completion: CurlCompletion
    switch await loop.perform(transfer) {
    case .success(let value): completion = value
    case .failure(let error): return .failure(AttemptFailure(error: error))
    }
    let isConditional = request.etag != nil || request.lastModified != nil
    let isNotModified = completion.status == 304 && isConditional
    guard (200..<300).contains(completion.status) || isNotModified else {
      let retryAfter = completion.headers["retry-after"].flatMap { RetryPolicy.parseRetryAfter($0) }
      return .failure(AttemptFailure(error: .httpStatus(completion.status), retryAfter: retryAfter))
    }
    return .success(
      FetchResponse(
        requestedURL: request.url, finalURL: completion.urls.last ?? request.url,
        redirects: Array(completion.urls.dropLast()), status: completion.status, isNotModified: isNotModified,
        contentType: completion.headers["content-type"], etag: completion.headers["etag"],
        lastModified: completion.headers["last-modified"], body: isNotModified ? [] : completion.body,
        duration: completion.duration, httpVersion: completion.httpVersion,
        isTruncated: completion.isTruncated))
  }
}
