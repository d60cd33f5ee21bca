import Foundation
import ThumbifySystem

/// Removes blobs that nothing references any more: `thumbify gc`.
///
/// A blob is kept when `manifest.jsonl` or the state database references it, or when it is younger
/// than the grace period (a crawl writes blobs before it references them). It takes the run lock, so
/// it never runs beside a crawl of the same directory. Leftover temp files (`.tmp-*`, from a crash
/// mid-write) older than the grace period are removed too.
package struct GarbageCollector: Sendable {
  /// What a collection did.
  package struct Report: Sendable, Equatable {
    package var removed = 0
    package var removedBytes = 0
    package var kept = 0
    package var keptBytes = 0
    /// Unreferenced blobs kept because they are younger than the grace period.
    package var keptYoung = 0
  }

  /// The output directory and the state directory whose references keep blobs.
  package var layout: OutputLayout
  package var outputDirectory: String { layout.directory }
  /// Seconds an unreferenced blob is kept after its last modification.
  package var grace: Double

  package init(layout: OutputLayout, grace: Double = 86_400) {
    self.layout = layout
    self.grace = grace
  }

  /// Collects garbage.
  ///
  /// - Throws: `StoreError.locked` when a crawl holds the directory; `.database`/`.io` when the
  ///   manifest or state cannot be read.
  package func collect(now: Double = Date().timeIntervalSince1970) throws(StoreError) -> Report {
    let lock = try RunLock(layout)
    defer { withExtendedLifetime(lock) {} }
    ManifestWriter.removeStaleTemporaries(of: layout.manifest)
    FileSystem.removeStaleTemporaries(in: layout.directory)
    var referenced: Set<String> = []
    try readManifestReferences(into: &referenced)
    let statePath = layout.stateDatabase
    if access(statePath, F_OK) == 0 {
      try StateStore(path: statePath).referencedBlobPaths { referenced.insert($0) }
    }
    var report = Report()
    walk(OutputLayout.blobsName) { relative, size, modified in
      let name = relative.split(separator: "/").last ?? ""
      let isOld = now - modified >= grace
      if referenced.contains(relative) && !name.hasPrefix(".tmp-") {
        report.kept += 1
        report.keptBytes += size
      } else if !isOld {
        report.keptYoung += 1
      } else if unlink(OutputLayout.path(relative, in: outputDirectory)) == 0 {
        report.removed += 1
        report.removedBytes += size
      }
    }
    return report
  }

  private func readManifestReferences(into referenced: inout Set<String>) throws(StoreError) {
    let path = layout.manifest
    guard access(path, F_OK) == 0 else { return }
    do {
      try ManifestReader(directory: outputDirectory).readRecords { record in
        referenced.formUnion(record.blobPaths)
      }
    } catch let error as StoreError {
      // An unreadable manifest might reference any blob: collect nothing. The reader's error names
      // the manifest and says why.
      throw error
    } catch {
      throw .io(path: path, operation: "read the manifest", message: "\(error)")
    }
  }

  /// Calls `body` with every regular file under `relative`, depth first.
  private func walk(_ relative: String, _ body: (String, Int, Double) -> Void) {
    guard let entries = try? DirectoryEntries(OutputLayout.path(relative, in: outputDirectory)) else {
      return
    }
    while let name = try? entries.next() {
      let child = FilePath(relative).appending(name).string
      var status = stat()
      guard lstat(OutputLayout.path(child, in: outputDirectory), &status) == 0 else { continue }
      switch status.st_mode & S_IFMT {
      case S_IFDIR: walk(child, body)
      case S_IFREG:
        body(child, Int(status.st_size), Double(status.st_mtim.tv_sec))
      default: continue
      }
    }
  }
}
