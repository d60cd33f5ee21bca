import Foundation
import Thumbify

/// `--render` and `--render-timeout`, which `crawl` and `extract` share (docs/rendering.md).
enum RenderOptions {
  static let specs: [OptionSpec] = [
    .option(
      "render", value: "mode",
      help:
        "Render pages in headless Chromium before reading them: never; auto (pages whose served HTML has "
        + "neither title nor image, or looks like an app shell and has no description); always. Needs "
        + "Debian's chromium (THUMBIFY_CHROMIUM names another executable).",
      default: RenderMode.never.rawValue, choices: RenderMode.allCases.map(\.rawValue)),
    .option(
      "render-timeout", value: "duration",
      help: "The deadline of rendering one page: navigation, scripts and the network settling (at most 5m).",
      default: "10s"),
  ]

  /// `--render`'s mode and the budget `--render-timeout` sets.
  static func parse(_ arguments: ParsedArguments) throws(UsageError) -> (
    mode: RenderMode, budget: RenderBudget
  ) {
    let text = arguments.value("render") ?? RenderMode.never.rawValue
    guard let mode = RenderMode(rawValue: text) else {
      throw UsageError(
        "The value '\(text)' is invalid for '--render <mode>'", hint: "Give never, auto or always.")
    }
    var budget = RenderBudget()
    if let seconds = try DurationParser.value(
      "render-timeout", in: arguments, allowsZero: false, maximum: 300)
    {
      budget.deadline = .milliseconds(Int(seconds * 1000))
    }
    return (mode, budget)
  }

  /// The hint printed under a `browserMissing` error.
  static let missingBrowserHint =
    "Install Debian's chromium (apt-get install chromium; scripts/install-deps does), name another with "
    + "THUMBIFY_CHROMIUM, or drop --render."
}
