/// Why a page could not be rendered. The static card is kept whatever the cause (docs/rendering.md).
package enum RenderError: Error, Equatable, Sendable {
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
}
