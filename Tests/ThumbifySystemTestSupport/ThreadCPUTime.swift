import Foundation

/// The CPU time the calling thread spends in `work`, in seconds.
///
/// For checks that a synchronous piece of work is bounded (no quadratic blow-up on a hostile input):
/// the thread's own CPU time does not grow when other processes or tests load the machine, as the
/// wall-clock time does (a 20 MB page took 25 s of wall time beside a compiling suite).
/// The corresponding C function is `clock_gettime(2)` with `CLOCK_THREAD_CPUTIME_ID`.
package func threadCPUSeconds(_ work: () throws -> Void) rethrows -> Double {
  func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }
  let start = now()
  try work()
  return now() - start
}
