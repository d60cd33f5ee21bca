/// One URL's deadline, shared by its page fetch and the image and icon candidates tried after it.
///
/// It counts network time only, as a fetch's own timeout does (`MeasuredFetch.networkTime`): the
/// transfers, redirect hops, failed attempts and retry waits, never the time a request waits in a
/// host's queue, nor the CPU time of decoding and resizing. Each fetch is given what is left
/// (`FetchRequest.timeout`), and is charged what it used.
///
/// The image and the icon are fetched in parallel, each branch with its own copy of what the page
/// left, so the card's network time on either path is at most `total`.
struct NetworkBudget: Sendable, Equatable {
  /// The URL's timeout (`--timeout`, `CrawlConfiguration.timeout`).
  let total: Duration
  /// The network time charged so far.
  private(set) var used: Duration = .zero

  init(total: Duration) {
    self.total = max(total, .zero)
  }

  /// What is left for the next fetch; zero when the budget is used up.
  var remaining: Duration { max(total - used, .zero) }

  /// True when no time is left: the next candidate is not fetched.
  var isUsedUp: Bool { remaining <= .zero }

  /// Counts `networkTime` (a fetch's, or a shared download's) against the budget.
  mutating func charge(_ networkTime: Duration) {
    used += max(networkTime, .zero)
  }

  /// The `timedOut` error of a list of candidates the budget ran out on, `untried` of them not
  /// fetched; `lastError` (the failure of the last one tried, if any) is kept in the message.
  func usedUpError(untried: Int, stage: String, lastError: RecordError?) -> RecordError {
    let candidates = untried == 1 ? "1 \(stage) candidate was" : "\(untried) \(stage) candidates were"
    let last = lastError.map { " The last one tried: \($0.message)" } ?? ""
    return RecordError(
      code: FetchError.timedOut("").code,
      message: "The URL's \(total.secondsText) timeout was used up; \(candidates) not fetched.\(last)",
      stage: stage)
  }
}
