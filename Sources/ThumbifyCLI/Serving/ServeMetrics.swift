import Synchronization

/// `thumbify serve`'s counters, rendered as Prometheus text on `/metrics`.
final class ServeMetrics: Sendable {
  /// Upper bounds of the latency histogram, in seconds.
  static let buckets: [Double] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
  ]

  private struct Histogram {
    var counts = [Int](repeating: 0, count: ServeMetrics.buckets.count)
    var count = 0
    var sum = 0.0

    mutating func add(_ seconds: Double) {
      if let index = ServeMetrics.buckets.firstIndex(where: { seconds <= $0 }) { counts[index] += 1 }
      count += 1
      sum += seconds
    }
  }

  private struct State {
    /// Requests by route and status.
    var requests: [String: [Int: Int]] = [:]
    /// Card answers by source: `cards`, `stored` (hits) and `live` (misses).
    var lookups: [String: Int] = [:]
    /// Errors answered, by code.
    var errors: [String: Int] = [:]
    var latency: [String: Histogram] = [:]
  }

  private let state = Mutex(State())

  func record(route: String, status: Int, seconds: Double, source: String?, code: String?) {
    state.withLock { state in
      state.requests[route, default: [:]][status, default: 0] += 1
      if let source { state.lookups[source, default: 0] += 1 }
      if let code { state.errors[code, default: 0] += 1 }
      // In place: a histogram copied out of the dictionary and back copies its counts too.
      state.latency[route, default: Histogram()].add(seconds)
    }
  }

  /// The exposition text (`text/plain; version=0.0.4`).
  func render(liveFetches: Int, isDraining: Bool) -> String {
    let state = state.withLock { $0 }
    var lines: [String] = []
    func family(_ name: String, _ type: String, _ help: String) {
      lines.append("# HELP \(name) \(help)")
      lines.append("# TYPE \(name) \(type)")
    }
    family("thumbify_serve_requests_total", "counter", "HTTP requests answered, by route and status.")
    for route in state.requests.keys.sorted() {
      for (status, count) in state.requests[route, default: [:]].sorted(by: { $0.key < $1.key }) {
        lines.append("thumbify_serve_requests_total{route=\"\(route)\",status=\"\(status)\"} \(count)")
      }
    }
    family(
      "thumbify_serve_card_lookups_total", "counter",
      "Cards answered, by where they came from: cards (the crawl's, a hit), stored (fetched live before, a hit), live (a miss, fetched now)."
    )
    for source in ["cards", "stored", "live"] {
      lines.append(
        "thumbify_serve_card_lookups_total{source=\"\(source)\"} \(state.lookups[source, default: 0])")
    }
    family(
      "thumbify_serve_errors_total", "counter", "Error answers, by code (docs/errors.md, docs/serve.md).")
    for (code, count) in state.errors.sorted(by: { $0.key < $1.key }) {
      lines.append("thumbify_serve_errors_total{code=\"\(code)\"} \(count)")
    }
    family("thumbify_serve_live_fetches", "gauge", "Live fetches (distinct URLs) in flight.")
    lines.append("thumbify_serve_live_fetches \(liveFetches)")
    family("thumbify_serve_draining", "gauge", "1 while the server is stopping.")
    lines.append("thumbify_serve_draining \(isDraining ? 1 : 0)")
    family("thumbify_serve_request_duration_seconds", "histogram", "Time from request to answer, by route.")
    for route in state.latency.keys.sorted() {
      let histogram = state.latency[route]!
      var cumulative = 0
      for (index, bound) in Self.buckets.enumerated() {
        cumulative += histogram.counts[index]
        lines.append(
          "thumbify_serve_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(bound)\"} \(cumulative)")
      }
      lines.append(
        "thumbify_serve_request_duration_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(histogram.count)")
      lines.append("thumbify_serve_request_duration_seconds_sum{route=\"\(route)\"} \(histogram.sum)")
      lines.append("thumbify_serve_request_duration_seconds_count{route=\"\(route)\"} \(histogram.count)")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

/// Requests per client per minute, as a token bucket per client: `limit` requests at once, then one
/// more every `60 / limit` seconds. A client whose bucket is full again is forgotten (swept when
/// the table grows), so memory is bounded by the clients active in the last minute.
final class RateLimiter: Sendable {
  private let limit: Int
  /// Tokens left and when they were counted, per client.
  private let state = Mutex<[String: (tokens: Double, at: Double)]>([:])

  /// `limit` requests per minute per client; 0 for none.
  init(perMinute limit: Int) { self.limit = limit }

  /// Counts one request of `client` at `now` (seconds); the seconds until it may ask again when it
  /// is past its limit.
  func admit(_ client: String, now: Double) -> Int? {
    guard limit > 0 else { return nil }
    let capacity = Double(limit)
    let perSecond = capacity / 60
    return state.withLock { buckets -> Int? in
      if buckets.count > 10_000 {
        buckets = buckets.filter { $0.value.tokens + (now - $0.value.at) * perSecond < capacity }
      }
      var bucket = buckets[client] ?? (capacity, now)
      bucket.tokens = min(capacity, bucket.tokens + max(0, now - bucket.at) * perSecond)
      bucket.at = now
      guard bucket.tokens >= 1 else {
        buckets[client] = bucket
        return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up)))
      }
      bucket.tokens -= 1
      buckets[client] = bucket
      return nil
    }
  }
}
