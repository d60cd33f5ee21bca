import Foundation

/// Polls `condition` every 20 ms until it holds, instead of sleeping a fixed time and hoping the other
/// side got there (a loaded machine can take seconds to send a request). `limit` catches a hang; it is
/// no race: past it the test fails with `what`.
package func waitUntil(
  _ what: String = "the awaited condition", limit: Duration = .seconds(240), _ condition: () throws -> Bool
) async throws {
  let deadline = ContinuousClock.now + limit
  while try !condition() {
    guard ContinuousClock.now < deadline else { throw WaitUntilError(what: what) }
    try await Task.sleep(for: .milliseconds(20))
  }
}

/// `waitUntil`'s condition never held.
package struct WaitUntilError: Error, CustomStringConvertible {
  package var what: String
  package var description: String { "never: \(what)" }
}
