import Foundation

/// Faults the tests of the real binary ask for through the environment (docs/errors.md).
enum TestHooks {
  /// `THUMBIFY_TEST_CRASH_ON_IMAGE=<text>`: the decode of an image whose URL contains `<text>` traps, as
  /// a decoder bug would (crash-loop protection is tested with it).
  private static let crashingImage: String? = ProcessInfo.processInfo.environment[
    "THUMBIFY_TEST_CRASH_ON_IMAGE"
  ].flatMap { $0.isEmpty ? nil : $0 }

  static func crashIfAsked(decoding url: String) {
    if let crashingImage, url.contains(crashingImage) {
      fatalError("THUMBIFY_TEST_CRASH_ON_IMAGE: a decoder crash, as asked, on \(url)")
    }
  }
}
