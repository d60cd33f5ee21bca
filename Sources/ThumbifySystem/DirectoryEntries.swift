import Foundation

/// The entry names of one directory, but `.` and `..`, read one at a time (`readdir`): a directory is
/// never listed whole, and an entry removed while it is read is not a problem. The stream is owned —
/// the value cannot be copied — and closed when the value goes away.
///
/// ```swift
/// let entries = try DirectoryEntries(path)
/// while let name = try entries.next() { … }
/// ```
package struct DirectoryEntries: ~Copyable {
  private let stream: OpaquePointer
  /// The directory, as given.
  package let path: String

  /// Opens `path` for reading. Throws the `Errno` of `opendir` (`noSuchFileOrDirectory`, …).
  package init(_ path: String) throws(Errno) {
    guard let stream = opendir(path) else { throw .current }
    self.stream = stream
    self.path = path
  }

  deinit { closedir(stream) }

  /// The next name, or `nil` at the end. Throws the `Errno` of a failed `readdir`.
  package func next() throws(Errno) -> String? {
    while true {
      Errno.current = Errno(rawValue: 0)
      guard let entry = readdir(stream) else {
        let error = Errno.current
        if error.rawValue != 0 { throw error }
        return nil
      }
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { return name }
    }
  }
}
