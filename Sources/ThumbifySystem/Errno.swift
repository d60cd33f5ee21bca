import Foundation

/// A C library error number, as swift-system's `Errno`: what a failed system call left in `errno`,
/// typed, comparable and printed as `strerror`'s sentence. Only ThumbifySystem reads `errno` or calls
/// `strerror`; every layer goes through this type and `SystemCall` (docs/errors.md).
package struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
  /// The raw `errno` value.
  package var rawValue: Int32

  package init(rawValue: Int32) { self.rawValue = rawValue }

  /// The value the last failed call of this thread left in `errno`.
  package static var current: Errno {
    get { Errno(rawValue: errno) }
    set { errno = newValue.rawValue }
  }

  /// `strerror`'s sentence ("No such file or directory").
  package var description: String { String(cString: strerror(rawValue)) }

  /// `EINTR`: a signal arrived during the call.
  package static let interrupted = Errno(rawValue: EINTR)
  /// `ENOENT`.
  package static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
  /// `EEXIST`.
  package static let fileExists = Errno(rawValue: EEXIST)
  /// `EXDEV`: a rename or link across file systems.
  package static let crossDevice = Errno(rawValue: EXDEV)
  /// `EIO`.
  package static let ioError = Errno(rawValue: EIO)
  /// `EAGAIN` / `EWOULDBLOCK`.
  package static let wouldBlock = Errno(rawValue: EAGAIN)
}

extension SystemCall {
  /// `body()`'s result, retried while it fails with `EINTR`; a negative result (the C convention for
  /// failure) becomes the thread's `Errno`. swift-system's `valueOrErrno`.
  package static func valueOrErrno<Result: BinaryInteger>(_ body: () -> Result) -> Swift.Result<Result, Errno>
  {
    let result = retrying(body)
    return result < 0 ? .failure(.current) : .success(result)
  }

  /// `body()` for calls that return 0 or -1, retried on `EINTR`; throws the `Errno` of a failure.
  package static func check(_ body: () -> Int32) throws(Errno) {
    if case .failure(let error) = valueOrErrno(body) { throw error }
  }
}
