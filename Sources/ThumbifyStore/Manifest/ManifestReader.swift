import Foundation
import ThumbifySystem

/// Reads `manifest.jsonl` one record at a time, in file order, in bounded memory.
package struct ManifestReader: Sendable {
  /// The longest line accepted: a record is a few kilobytes, so a longer line is corruption.
  package static let maximumLineLength = 16 << 20

  /// The manifest's path.
  package let path: String

  /// A reader of `<directory>/manifest.jsonl`.
  ///
  /// - Throws: `StoreError.io` when the file does not exist or is not readable.
  package init(directory: String) throws(StoreError) {
    path = OutputLayout.manifest(in: directory)
    guard access(path, R_OK) == 0 else {
      throw .io(path: path, operation: "read the manifest", message: SystemCall.message())
    }
  }

  /// Calls `body` with each record; blank lines are skipped.
  ///
  /// - Throws: `StoreError` for an unreadable file or malformed line, or what `body` throws.
  package func readRecords(_ body: (CrawlRecord) throws -> Void) throws {
    try readRecords(inBatchesOf: 1024) { records in
      for record in records { try body(record) }
    }
  }

  /// Calls `body` with up to `batchSize` records at a time, in file order, decoding each batch on
  /// every core. Memory: one batch of lines and records.
  ///
  /// - Throws: `StoreError` for an unreadable file or malformed line (the first in file order),
  ///   or what `body` throws.
  package func readRecords(inBatchesOf batchSize: Int, _ body: ([CrawlRecord]) throws -> Void) throws {
    let lines: LineReader
    do {
      lines = try LineReader(path: path, maxLength: Self.maximumLineLength)
    } catch {
      throw StoreError.io(path: path, operation: "read the manifest", message: Self.message(error))
    }
    var batch: [(number: Int, bytes: [UInt8])] = []
    var lineNumber = 0
    func flush() throws {
      defer { batch.removeAll(keepingCapacity: true) }
      let path = self.path
      let decoded = ParallelMap.map(batch) { line -> Result<CrawlRecord, StoreError> in
        do {
          return .success(try JSONDecoder().decode(CrawlRecord.self, from: Data(line.bytes)))
        } catch {
          return .failure(.malformedLine(path: path, line: line.number, message: Self.reason(error)))
        }
      }
      try body(try decoded.map { try $0.get() })
    }
    while let line = try Self.nextLine(lines, path: path) {
      lineNumber += 1
      if line.count > Self.maximumLineLength {
        throw StoreError.lineTooLong(path: path, line: lineNumber, limit: Self.maximumLineLength)
      }
      guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
      batch.append((lineNumber, line))
      if batch.count >= max(1, batchSize) { try flush() }
    }
    if !batch.isEmpty { try flush() }
  }

  private static func nextLine(_ lines: LineReader, path: String) throws(StoreError) -> [UInt8]? {
    do {
      return try lines.nextLine()
    } catch {
      throw .io(path: path, operation: "read the manifest", message: message(error))
    }
  }

  private static func message(_ error: StoreError) -> String {
    switch error {
    case .io(_, _, let message): message
    default: error.description
    }
  }

  /// A decoding error as a short sentence fragment.
  private static func reason(_ error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(let key, _): "the field '\(key.stringValue)' is missing"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
      DecodingError.dataCorrupted(let context):
      context.codingPath.isEmpty
        ? "it is not valid JSON"
        : "the field '\(context.codingPath.map(\.stringValue).joined(separator: "."))' is invalid"
    default: String(describing: error)
    }
  }
}
