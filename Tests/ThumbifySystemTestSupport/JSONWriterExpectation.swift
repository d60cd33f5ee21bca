import Foundation
import Testing
import ThumbifySystem

/// Expects `JSONWriter` to give exactly `JSONEncoder`'s bytes for `value` (sorted keys, unescaped
/// slashes): the state database, the manifest and the cards are written with it, and readers compare
/// bytes.
package func expectJSONWriterMatchesJSONEncoder(
  _ value: some Encodable & JSONWritable, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let reference = JSONEncoder()
  reference.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  let expected = [UInt8](try reference.encode(value))
  let actual = try JSONWriter.encode(value)
  #expect(
    String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
    sourceLocation: sourceLocation)
}
