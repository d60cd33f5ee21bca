import Testing

/// Every suite that starts Chromium, run one test at a time: each browser keeps a core busy, and
/// the machine's other timing-sensitive tests run alongside.
@Suite("Chromium", .serialized)
enum ChromiumTests {}
