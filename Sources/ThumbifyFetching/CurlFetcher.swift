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
package final class CurlFetcher: Fetching {
  package let configuration: FetcherConfiguration
  /// The robots.txt cache; export its entries to reuse validators in the next run.
  package let robots: RobotsCache
  private let loop: CurlMultiLoop
  private let health: HostHealth
  private let exemptAddresses: Set<IPAddress>
  private let nextID = Atomic<UInt64>(1)

  /// Starts the multi loop thread.
  /// - Throws: `FetchError.other` when libcurl cannot be initialised.
  package init(configuration: FetcherConfiguration = FetcherConfiguration(), robots: RobotsCache? = nil)
    throws(FetchError)
  {
    self.configuration = configuration
    self.robots = robots ?? RobotsCache()
    loop = try CurlMultiLoop(configuration: configuration)
    health = HostHealth(
      limit: configuration.retry.hostFailureLimit, skipDuration: configuration.retry.hostSkipDuration)
    exemptAddresses = Set(configuration.exemptAddresses.compactMap { IPAddress($0) })
  }

  deinit {
    loop.shutdown()
  }

  /// The multi loop thread's kernel thread ID, for leak checks in tests.
  var loopThreadID: Int32 { loop.threadID.load(ordering: .relaxed) }
  /// How many curl easy handles the fetcher has made (finished transfers' handles are reused).
  var easyHandlesMade: Int { loop.handlesMade.load(ordering: .relaxed) }

  /// Cancels every transfer and stops the loop thread; later fetches throw `.cancelled`.
  package func shutdown() {
    loop.shutdown()
  }

  /// Sends no new transfer from now on: the waiting ones and every later fetch fail with `.stopped`
  /// (robots.txt too, so a page waiting for its origin's robots.txt ends `.stopped`, not blocked);
  /// transfers already handed to curl go on until they end or their task is cancelled.
  package func stopStartingRequests() {
    loop.stopStarting()
  }

  /// Fetches `request` politely and safely, following redirects and retrying transient failures.
  ///
  /// - Returns: the 2xx response, or a 304 with `isNotModified` when validators were sent.
  /// - Throws: `FetchError`; non-2xx statuses are `.httpStatus`.
  package func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
    try await measuredFetch(request).result.get()
  }

  /// `fetch`, with the network time it used: what its deadline counted (queue time excluded).
  package func measuredFetch(_ request: FetchRequest) async -> MeasuredFetch {
    var spent: Duration = .zero
    do throws(FetchError) {
      let response = try await follow(
        request,
        honoursRobots: [.page, .subresource, .oembed].contains(request.kind) && !configuration.ignoresRobots,
        retries: true,
        spent: &spent)
      return MeasuredFetch(result: .success(response), networkTime: spent)
    } catch {
      return MeasuredFetch(result: .failure(error), networkTime: spent)
    }
  }

  /// The deadline of `request`: the configured timeout, or the request's own when it is shorter.
  func timeout(of request: FetchRequest) -> Duration {
    guard let cap = request.timeout else { return configuration.timeout }
    return max(min(cap, configuration.timeout), .zero)
  }

  /// Fetches `request` and every redirect hop, each as its own queued transfer checked against
  /// its host's health and (for pages) robots.txt; the hops and their retries share one total
  /// timeout, `timeout(of:)` (the time spent waiting in a host's queue does not count), which
  /// `spent` adds up, failed or not. robots.txt is fetched under a deadline of its own.
  private func follow(
    _ request: FetchRequest, honoursRobots: Bool, retries: Bool, spent: inout Duration
  ) async throws(FetchError) -> FetchResponse {
    let timeout = timeout(of: request)
    var current = request
    var chain: [String] = []
    while true {
      let target = try FetchTarget(current.url)
      guard !health.isSkipped(target.hostKey) else { throw .hostSkipped(target.authority) }
      // Fired once this hop's transfer is queued, or when the hop ends without one.
      let release = honoursRobots ? try await checkRobots(current.url, target: target) : nil
      defer { release?.fire() }
      guard timeout - spent > .zero else {
        throw .timedOut(
          chain.isEmpty
            ? "The \(timeout.secondsText) timeout was used up before the request was made."
            : "The redirect chain used up the \(timeout.secondsText) timeout.")
      }
      let hop = try await attemptWithRetries(
        current, target: target, timeout: timeout, retries: retries, spent: &spent, onQueued: release?.fire)
      guard let next = hop.redirectURL else {
        var response = hop.response
        response.requestedURL = request.url
        response.redirects = chain
        return response
      }
      chain.append(current.url)
      guard chain.count <= configuration.maxRedirects else {
        throw .tooManyRedirects(configuration.maxRedirects)
      }
      current = FetchRequest(
        url: next, kind: request.kind, etag: request.etag, lastModified: request.lastModified,
        timeout: request.timeout, priority: request.priority)
    }
  }

  /// Ends a waiter's share of a robots.txt hold (`HostQueue.hold`) once: the last waiter to queue its
  /// request (or give up) releases the host.
  final class RobotsRelease: Sendable {
    private let isFired = Atomic(false)
    private let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    @Sendable func fire() {
      if !isFired.exchange(true, ordering: .relaxed) { body() }
    }
  }

  /// Throws unless robots.txt of `target`'s origin allows `url`; applies its `Crawl-delay`. When the
  /// caller waited for the fetch, returns what to fire once its request is queued.
  private func checkRobots(_ url: String, target: FetchTarget) async throws(FetchError) -> RobotsRelease? {
    let loop = loop
    let (verdict, isWaiter) = await robots.verdict(
      for: target.origin, hold: { loop.hold(host: target.hostKey) },
      fetch: { [self] robotsRequest in
        var spent: Duration = .zero
        do throws(FetchError) {
          return .success(
            try await self.follow(robotsRequest, honoursRobots: false, retries: false, spent: &spent))
        } catch {
          return .failure(error)
        }
      })
    let robots = robots
    let release =
      isWaiter
      ? RobotsRelease {
        if robots.waiterQueued(target.origin) { loop.release(host: target.hostKey) }
      } : nil
    let rules = verdict.rules
    if let delay = rules.crawlDelay, delay > 0 {
      let capped = Self.crawlDelay(seconds: delay, cappedAt: configuration.maxCrawlDelay)
      loop.setDelay(max(capped, configuration.perHostDelay), host: target.hostKey)
    }
    guard rules.allows(target.pathAndQuery) else {
      release?.fire()
      // Unreachable robots.txt disallows the origin; the network error says more than "robots".
      throw verdict.unreachable ?? .blockedByRobots(url)
    }
    return release
  }

  /// robots.txt's `Crawl-delay` (seconds, finite, ≥ 0) as a Duration of at most `cap`.
  ///
  /// Capped as seconds before the conversion: a huge delay (1e308) does not fit a Duration.
  static func crawlDelay(seconds: Double, cappedAt cap: Duration) -> Duration {
    let capSeconds = Double(cap.components.seconds) + Double(cap.components.attoseconds) * 1e-18
    return .milliseconds(min(seconds, capSeconds) * 1000)
  }

  /// One hop, retried per `RetryPolicy` when `retries` is true, all within `timeout` less what
  /// `spent` holds already: each attempt gets what is left, and a retry whose wait would not leave
  /// time for one more attempt is not made (the last failure is thrown). Adds what the hop used to
  /// `spent`: a success's transfer time, plus the failed attempts and the waits before it.
  private func attemptWithRetries(
    _ request: FetchRequest, target: FetchTarget, timeout: Duration, retries: Bool, spent: inout Duration,
    onQueued: (@Sendable () -> Void)? = nil
  )
    async throws(FetchError) -> Hop
  {
    var attemptNumber = 1
    while true {
      if Task.isCancelled { throw .cancelled }
      switch await attempt(
        request, target: target, timeout: timeout - spent, onQueued: attemptNumber == 1 ? onQueued : nil)
      {
      case .success(let hop):
        health.recordSuccess(target.hostKey)
        spent += .milliseconds(Int(hop.response.duration * 1000))
        return hop
      case .failure(let failure):
        spent += failure.transferTime
        guard retries, RetryPolicy.isRetryable(failure.error) else { throw failure.error }
        health.recordFailure(target.hostKey)
        guard attemptNumber < configuration.retry.maxAttempts else { throw failure.error }
        guard !health.isSkipped(target.hostKey) else { throw .hostSkipped(target.authority) }
        let delay = configuration.retry.delay(afterAttempt: attemptNumber, retryAfter: failure.retryAfter)
        // The deadline: a wait that leaves under a second for the next attempt is not worth making.
        guard spent + delay + .seconds(1) <= timeout else { throw failure.error }
        if failure.retryAfter != nil { loop.postpone(host: target.hostKey, until: .now + delay) }
        do { try await Task.sleep(for: delay) } catch { throw .cancelled }
        spent += delay
        attemptNumber += 1
      }
    }
  }

  /// One transfer's outcome: a response, and where it redirects to for a 3xx.
  struct Hop {
    var response: FetchResponse
    var redirectURL: String?
  }

  /// A failed attempt, how long its transfer took (queue time excluded) and the server's
  /// `Retry-After`, if it sent one.
  struct AttemptFailure: Error {
    var error: FetchError
    var transferTime: Duration
    var retryAfter: Duration?
  }

  /// One transfer, no robots, redirects or retries; non-2xx statuses (except a 3xx with a
  /// `Location` and a 304 to a conditional request) become `.httpStatus`.
  func attempt(
    _ request: FetchRequest, target: FetchTarget, timeout: Duration, onQueued: (@Sendable () -> Void)? = nil
  ) async -> Result<Hop, AttemptFailure> {
    let transfer = CurlTransfer(
      id: nextID.add(1, ordering: .relaxed).oldValue, request: request, host: target.hostKey,
      bodyLimit: configuration.bodyLimit(for: request.kind),
      allowsPrivateNetwork: configuration.allowsPrivateNetwork, exemptAddresses: exemptAddresses,
      redirectLimit: configuration.maxRedirects, timeout: timeout)
    let completion: CurlCompletion
    switch await loop.perform(transfer, onQueued: onQueued) {
    case .success(let value): completion = value
    case .failure(let error):
      return .failure(AttemptFailure(error: error, transferTime: transfer.ticket.transferTime))
    }
    let isConditional = request.etag != nil || request.lastModified != nil
    let isNotModified = completion.status == 304 && isConditional
    let redirectURL = (300..<400).contains(completion.status) && !isNotModified ? completion.redirectURL : nil
    guard (200..<300).contains(completion.status) || isNotModified || redirectURL != nil else {
      let retryAfter = completion.headers["retry-after"].flatMap { RetryPolicy.parseRetryAfter($0) }
      return .failure(
        AttemptFailure(
          error: .httpStatus(completion.status), transferTime: transfer.ticket.transferTime,
          retryAfter: retryAfter))
    }
    let response = FetchResponse(
      requestedURL: request.url, finalURL: completion.urls.last ?? request.url, status: completion.status,
      isNotModified: isNotModified, contentType: completion.headers["content-type"],
      etag: completion.headers["etag"], lastModified: completion.headers["last-modified"],
      body: isNotModified || redirectURL != nil ? [] : completion.body, duration: completion.duration,
      httpVersion: completion.httpVersion, isTruncated: completion.isTruncated)
    return .success(Hop(response: response, redirectURL: redirectURL))
  }
}
