import Synchronization

/// A `Fetching` that forwards to another fetcher and counts the body bytes of the responses it
/// returns (pages and images; robots.txt, fetched inside `CurlFetcher`, is not counted): the run
/// report's bytes fetched.
package final class CountingFetcher: Fetching {
  private let base: any Fetching
  private let bytes = Atomic<Int>(0)

  package init(_ base: any Fetching) {
    self.base = base
  }

  /// Body bytes received so far.
  package var fetchedBytes: Int { bytes.load(ordering: .relaxed) }

  package func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
    let response = try await base.fetch(request)
    bytes.add(response.body.count, ordering: .relaxed)
    return response
  }

  // Forwarded, not the protocol's default: the base's measure is its own (queue waits left out).
  package func measuredFetch(_ request: FetchRequest) async -> MeasuredFetch {
    let measured = await base.measuredFetch(request)
    if case .success(let response) = measured.result { bytes.add(response.body.count, ordering: .relaxed) }
    return measured
  }

  package func stopStartingRequests() { base.stopStartingRequests() }
}
