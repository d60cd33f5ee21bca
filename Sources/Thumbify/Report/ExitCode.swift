/// The process exit codes thumbify documents (see README, "Exit codes").
package enum ExitCode {
  /// Everything succeeded.
  package static let success: Int32 = 0
  /// The run finished but some inputs failed (each failure is in the manifest).
  package static let someFailed: Int32 = 1
  /// The command line was wrong (`EX_USAGE`).
  package static let usage: Int32 = 64
  /// The run could not proceed at all: output not writable, directory locked by
  /// another run, corrupt state (`EX_SOFTWARE` from sysexits.h).
  package static let fatal: Int32 = 70
  /// Stopped by SIGINT (Ctrl-C) after committing what was finished: 128 + 2, as shells report it.
  package static let interrupted: Int32 = 130
  /// Stopped by SIGTERM after committing what was finished: 128 + 15.
  package static let terminated: Int32 = 143
}
