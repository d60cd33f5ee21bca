import Foundation
import Thumbify

/// `--render` and `--render-timeout`, which `crawl`, `serve` and `extract` share (docs/rendering.md).
enum RenderOptions {
  static let mode = Option<RenderMode>.choice(
    "render", value: "mode",
    help:
      "Render pages in headless Chromium before reading them: never; auto (pages whose served HTML has "
      + "neither title nor image, or looks like an app shell and has no description); always. Needs "
      + "Debian's chromium (THUMBIFY_CHROMIUM names another executable).",
    default: .never)
  static let timeout = Option.duration(
    "render-timeout",
    help: "The deadline of rendering one page: navigation, scripts and the network settling (at most 5m).",
    default: "10s", allowsZero: false, maximum: 300)

  static let specs: [OptionSpec] = [mode.spec, timeout.spec]

  /// `--render`'s mode and the budget `--render-timeout` sets.
  static func parse(_ arguments: ParsedArguments) throws(UsageError) -> (
    mode: RenderMode, budget: RenderBudget
  ) {
    var budget = RenderBudget()
    budget.deadline = .milliseconds(Int(try arguments.required(timeout) * 1000))
    return (try arguments.required(mode), budget)
  }

  /// The hint printed under a `browserMissing` error.
  static let missingBrowserHint =
    "Install Debian's chromium (apt-get install chromium; scripts/install-deps does), name another with "
    + "THUMBIFY_CHROMIUM, or drop --render."
}
