import Foundation

/// Finds Chromium and the command line that starts it for thumbify: headless, driven over the
/// DevTools pipe (file descriptors 3 and 4), and unable to reach any network on its own — every
/// request a page makes is to be fulfilled by thumbify's fetcher (`Fetch.enable`), so a request that
/// escapes interception must fail: all traffic goes to a dead proxy (loopback included, which
/// Chromium otherwise never proxies), and every host name resolves to nothing.
package enum ChromiumLauncher {
  /// The executables tried, in order, on `PATH`.
  package static let executableNames = ["chromium", "chromium-browser", "google-chrome", "chrome"]

  /// The first Chromium on `PATH` (or `explicit`, when given and executable).
  package static func executable(
    explicit: String? = nil, path: String? = ProcessInfo.processInfo.environment["PATH"]
  )
    throws(RenderError) -> String
  {
    if let explicit {
      guard access(explicit, X_OK) == 0 else {
        throw .browserMissing("\(explicit) is not an executable file")
      }
      return explicit
    }
    for directory in (path ?? "/usr/bin:/bin").split(separator: ":") {
      for name in executableNames {
        let candidate = "\(directory)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
      }
    }
    throw .browserMissing(
      "no Chromium found on PATH (tried \(executableNames.joined(separator: ", "))); install Debian's chromium"
    )
  }

  /// The arguments after the executable. `profile` is a fresh, private user-data directory.
  package static func arguments(profile: String) -> [String] {
    var arguments = [
      "--headless=new", "--remote-debugging-pipe", "--user-data-dir=\(profile)",
      // No network of its own: a dead proxy for every scheme and host, loopback too (`<-loopback>`
      // removes Chromium's implicit bypass), and no name resolves.
      "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
      "--host-resolver-rules=MAP * ~NOTFOUND",
      // None of the browser's own traffic: updates, sync, metrics, safe browsing, translate, hints.
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--disable-default-apps", "--disable-extensions", "--disable-breakpad", "--no-first-run",
      "--no-default-browser-check", "--metrics-recording-only", "--safebrowsing-disable-auto-update",
      "--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,AutofillServerCommunication",
      "--disable-gpu", "--mute-audio", "--hide-scrollbars", "--disable-dev-shm-usage",
    ]
    // Chromium refuses to run as root with its sandbox; thumbify's own limits still apply.
    if geteuid() == 0 { arguments.append("--no-sandbox") }
    arguments.append("about:blank")
    return arguments
  }
}
