/// Why a page could not be rendered. The static card is kept whatever the cause (docs/rendering.md).
public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No Chromium executable was found (`--render` needs Debian's `chromium`).
  case browserMissing(String)
  /// The browser could not be started, or its pipe failed.
  case launchFailed(String)
  /// The browser exited (crashed, was killed) while a command was waiting.
  case browserExited
  /// The browser answered a command with an error.
  case protocolError(method: String, message: String)
  /// The browser did not answer in time.
  case timedOut(method: String)
  /// The render's task was cancelled while it waited for a free tab.
  case cancelled

  /// A stable name of the case, for logs and the manifest's `renderError.message`.
  public var code: String {
    switch self {
    case .browserMissing: "browserMissing"
    case .launchFailed: "launchFailed"
    case .browserExited: "browserExited"
    case .protocolError: "protocolError"
    case .timedOut: "timedOut"
    case .cancelled: "cancelled"
    }
  }

  public var description: String {
    switch self {
    case .browserMissing(let detail): "Chromium is not installed: \(detail)."
    case .launchFailed(let detail): "Chromium could not be started: \(detail)."
    case .browserExited: "The browser exited while rendering the page."
    case .protocolError(let method, let message): "The browser refused \(method): \(message)."
    case .timedOut(let method): "The browser did not answer \(method) in time."
    case .cancelled: "The render was cancelled before a tab was free."
    }
  }
}
