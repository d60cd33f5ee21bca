import Foundation
import ThumbifySystem

/// Brings blobs from one output directory into another (`thumbify merge`, `crawl --baseline`): a hard
/// link on the same file system, else a copy (`FileSystem.writeAtomically`), each verified against
/// its name first. Content addressing makes this collision-free: a blob already present holds the
/// same bytes and is skipped, so bringing the same blobs twice writes nothing.
///
/// A link (`link(2)`) puts the whole file under its name at once, and a copy is written to an unnamed
/// file and linked into place, so no reader ever sees a torn blob. Links are not fsynced one by one:
/// call `sync(_:)` before a manifest names them.
package struct BlobUnion: Sendable {
  /// The output directory the blobs go into.
  package let target: String

  package init(target: String) {
    self.target = target
  }

  /// What one union did.
  package struct Counts: Sendable, Equatable {
    /// Blobs hard-linked from the source.
    package var linked = 0
    /// Blobs copied (another file system).
    package var copied = 0
    /// Blobs the target already held.
    package var present = 0
    /// Files whose bytes do not hash to their name (left out; named in `rejectedPaths`).
    package var rejected = 0
    /// The first 100 rejected paths, relative to the source.
    package var rejectedPaths: [String] = []
    package var bytes = 0
    /// The target's directories that got a new link (at most 65,536 `blobs/ab/cd`), for `sync(_:)`.
    package var linkedDirectories: Set<String> = []

    package init() {}

    package static func + (lhs: Counts, rhs: Counts) -> Counts {
      var sum = lhs
      sum.linked += rhs.linked
      sum.copied += rhs.copied
      sum.present += rhs.present
      sum.rejected += rhs.rejected
      sum.rejectedPaths = Array((lhs.rejectedPaths + rhs.rejectedPaths).prefix(100))
      sum.bytes += rhs.bytes
      sum.linkedDirectories.formUnion(rhs.linkedDirectories)
      return sum
    }
  }

  /// The largest blob accepted (a thumbnail is kilobytes; a source image is never stored).
  package static let maximumBlobSize = 64 << 20

  /// Brings every blob under `<source>/blobs` (`ab/cd/<sha256>.<ext>`) into the target. Temporary
  /// files and names that are not blob names are left out. The directory tree is read one entry at a
  /// time: memory does not grow with the number of blobs.
  ///
  /// - Throws: `StoreError.io` when a directory cannot be read or a blob cannot be written.
  package func unite(from source: String) throws(StoreError) -> Counts {
    var counts = Counts()
    let root = OutputLayout.path(OutputLayout.blobsName, in: source)
    guard FileSystem.isDirectory(root) else { return counts }
    try DirectoryEntries.forEach(in: root) { (first) throws(StoreError) in
      guard Self.isHexPair(first) else { return }
      try DirectoryEntries.forEach(in: FilePath(root).appending(first).string) {
        (second) throws(StoreError) in
        guard Self.isHexPair(second) else { return }
        try DirectoryEntries.forEach(in: FilePath(root).appending(first, second).string) {
          (name) throws(StoreError) in
          guard let sha = Self.digest(ofName: name), sha.hasPrefix(first + second) else { return }
          let relative = OutputLayout.blobPath(fileName: name)
          counts = counts + (try bring(relative, from: source))
        }
      }
    }
    return counts
  }

  /// Brings the blob at `relativePath` (`blobs/ab/cd/<sha256>.<ext>`) from `source` into the target,
  /// unless the target has it. A source without it, or whose bytes do not hash to the name, brings
  /// nothing (`rejected` for the latter).
  ///
  /// - Throws: `StoreError.io` when the blob cannot be written into the target.
  @discardableResult
  package func bring(_ relativePath: String, from source: String) throws(StoreError) -> Counts {
    var counts = Counts()
    let destination = OutputLayout.path(relativePath, in: target)
    if access(destination, F_OK) == 0 {
      counts.present = 1
      return counts
    }
    let name = relativePath.split(separator: "/").last.map(String.init) ?? ""
    guard let sha = Self.digest(ofName: name) else { return counts }
    let origin = OutputLayout.path(relativePath, in: source)
    guard let bytes = try? FileSystem.readFile(origin, limit: Self.maximumBlobSize) else { return counts }
    guard SHA256Digest.hex(of: bytes) == sha else {
      counts.rejected = 1
      counts.rejectedPaths = [relativePath]
      return counts
    }
    let directory = String(destination[..<(destination.lastIndex(of: "/") ?? destination.endIndex)])
    try FileSystem.makeDirectories(directory)
    counts.bytes = bytes.count
    if link(origin, destination) == 0 || Errno.current == .fileExists {
      counts.linked = 1
      counts.linkedDirectories = [directory]
      return counts
    }
    // EXDEV (another file system), or a file system without hard links: copy.
    try FileSystem.writeAtomically(bytes, to: destination)
    counts.copied = 1
    return counts
  }

  /// Makes the links of `counts` durable before a manifest names them: each directory that got one is
  /// fsynced (the linked files' bytes were fsynced by the crawl that wrote them; copies are fsynced as
  /// they are written). Not `syncfs(2)`, which on a shared machine waits for everyone's dirty pages:
  /// it took most of a small merge's wall time.
  package func sync(_ counts: Counts) throws(StoreError) {
    for directory in counts.linkedDirectories.sorted() {
      do {
        try FileDescriptor(opening: directory, O_RDONLY | O_DIRECTORY).sync()
      } catch {
        throw SystemCall.error("flush", directory, error)
      }
    }
  }

  /// The 64 lower-case hex digits of a blob name `<sha256>.<ext>`, or nil.
  static func digest(ofName name: String) -> String? {
    let utf8 = Array(name.utf8)
    guard utf8.count > 65, utf8[64] == UInt8(ascii: "."), !name.hasPrefix(".tmp-") else { return nil }
    guard utf8[..<64].allSatisfy(isHexDigit), utf8[65...].allSatisfy(isExtensionCharacter) else { return nil }
    return String(decoding: utf8[..<64], as: UTF8.self)
  }

  private static func isHexPair(_ name: String) -> Bool {
    name.utf8.count == 2 && name.utf8.allSatisfy(isHexDigit)
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
  }

  private static func isExtensionCharacter(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte)
  }

  /// Calls `body` with each entry name of `directory` but `.` and `..`, read one at a time.
}
