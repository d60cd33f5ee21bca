import Foundation

/// Runs programs as child processes and measures each one alone: wall time, CPU time from
/// `wait4`'s rusage, and peak RSS from GNU `time` (`%M`).
///
/// Why not `wait4`'s `ru_maxrss`: Linux keeps a process's peak RSS across `exec`, and a child made by
/// `posix_spawn` (or `fork`) starts with the parent's memory, so `ru_maxrss` is never below the
/// benchmark process's own peak (a 200 MB parent made `/bin/true` report 213 MB). `time` forks the
/// measured program from its own ~1 MB process, so `%M` is that program's peak alone.
enum ChildProcess {
  struct Outcome {
    var status: Int32
    var seconds: Double
    var peakRSSKiB: Int
    /// User + system CPU seconds of the child and the descendants it waited for (a process pool).
    var cpuSeconds: Double = 0
  }

  /// A started child that is stopped with SIGTERM and reaped.
  struct Running {
    var pid: pid_t
    func terminate() {
      kill(pid, SIGTERM)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
  }

  static func start(_ executable: String, _ arguments: [String]) throws -> Running {
    var pid: pid_t = 0
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let status = posix_spawn(&pid, executable, nil, nil, argv, environ)
    guard status == 0 else {
      throw BenchmarkFailure("Could not start \(executable): \(String(cString: strerror(status)))")
    }
    return Running(pid: pid)
  }

  /// GNU time (Debian's `time`, installed by `scripts/install-deps bench`).
  static let timeExecutable = "/usr/bin/time"

  /// Runs to completion under GNU `time`; a status outside `acceptedStatuses` is an error (`time`
  /// exits with the program's status, or 128 + its signal).
  @discardableResult
  static func run(_ executable: String, _ arguments: [String], acceptedStatuses: Set<Int32> = [0]) throws
    -> Outcome
  {
    let report = NSTemporaryDirectory() + "thumbify-bench-rss-\(getpid())"
    defer { unlink(report) }
    let started = Date()
    let child = try start(timeExecutable, ["-o", report, "-f", "%M", executable] + arguments)
    var status: Int32 = 0
    var usage = rusage()
    while wait4(child.pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let seconds = Date().timeIntervalSince(started)
    let peakRSSKiB = (try? String(contentsOfFile: report, encoding: .utf8))?
      .split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    guard acceptedStatuses.contains(exitStatus) else {
      throw BenchmarkFailure(
        "\(executable) \(arguments.joined(separator: " ")) exited with \(exitStatus)")
    }
    let cpu =
      Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    guard let peakRSSKiB else { throw BenchmarkFailure("\(timeExecutable) wrote no peak RSS to \(report)") }
    return Outcome(status: exitStatus, seconds: seconds, peakRSSKiB: peakRSSKiB, cpuSeconds: cpu)
  }

  /// Waits until something listens on `host:port` (at most 5 s).
  static func waitForPort(_ port: Int, host: String) async throws {
    for _ in 0..<100 {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      inet_pton(AF_INET, host, &address.sin_addr)
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      close(fd)
      if connected == 0 { return }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw BenchmarkFailure("nothing listens on \(host):\(port)")
  }
}
