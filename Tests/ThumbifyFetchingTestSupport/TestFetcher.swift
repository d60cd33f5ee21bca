import ThumbifyFetching

/// A fetcher for loopback tests: private network allowed (the servers are on 127.0.0.1),
/// robots ignored and no retries unless the test turns them on, short timeouts.
package func makeTestFetcher(_ customize: (inout FetcherConfiguration) -> Void = { _ in }) throws
  -> CurlFetcher
{
  var configuration = FetcherConfiguration()
  configuration.allowsPrivateNetwork = true
  configuration.ignoresRobots = true
  configuration.retry.maxAttempts = 1
  configuration.timeout = .seconds(10)
  configuration.connectTimeout = .seconds(5)
  customize(&configuration)
  return try CurlFetcher(configuration: configuration)
}

/// Runs `body`, returning its error (or nil when it succeeded).
package func fetchError(_ body: () async throws -> FetchResponse) async -> FetchError? {
  do {
    _ = try await body()
    return nil
  } catch {
    return error as? FetchError ?? .other("not a FetchError: \(error)")
  }
}
