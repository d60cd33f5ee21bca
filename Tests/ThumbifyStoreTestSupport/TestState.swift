import Foundation
import ThumbifyStore
import ThumbifySystemTestSupport

/// Where tests keep crawl state (the state directory is outside the output directory, issue 21):
/// a per-process directory under the temporary directory, used as `XDG_STATE_HOME` for the real
/// binary and for in-process command lines, so no test ever writes into `$HOME`.
package enum TestState {
  /// `XDG_STATE_HOME` of every test of this process, removed when the process exits.
  package static let home: String = {
    let path = NSTemporaryDirectory() + "thumbify-test-state-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: TestState.home) }
    return path
  }()

  /// This process's environment with `XDG_STATE_HOME` set to ``home``.
  package static var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_STATE_HOME"] = home
    // A suite run inside a scheduler's array task (a Slurm allocation) must not shard its crawls.
    for name in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"] {
      environment[name] = nil
    }
    return environment
  }

  /// The layout the command line resolves for `out` when `--state` is not given.
  package static func layout(_ out: String) -> OutputLayout {
    // Cannot fail: `environment` sets XDG_STATE_HOME.
    try! OutputLayout.resolving(out, stateDirectory: nil, environment: environment)
  }
}

/// The layout of a test's output directory `out`, its state in ``TestState/home``.
package func testLayout(_ out: String) -> OutputLayout { TestState.layout(out) }

/// A `thumbify` process of the real binary (`TestPaths.binary`) with `arguments`, its state under
/// ``TestState/home``; the caller sets its streams and runs it (`ChildProcess`).
package func thumbifyProcess(_ arguments: [String], environment extra: [String: String] = [:]) -> Process {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: TestPaths.binary)
  process.arguments = arguments
  process.environment = TestState.environment.merging(extra) { $1 }
  return process
}
