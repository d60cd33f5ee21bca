import Foundation
import Testing
import ThumbifyStore
import ThumbifySystemTestSupport
import ThumbifyTestSupport

// The fixture records are made with the real `Thumbnailer` (the pipeline), hence here and not with
// the other `JSONWriter` tests in ThumbifyStoreTests.
extension CardSchemaTests {
  @Test func fixtureRecordsAndCardsEncodeAsJSONEncoderDoes() throws {
    let directory = try FrontendFixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let records =
      try FrontendFixtures.records(in: directory, count: 10) + FrontendFixtures.hostileRecords(in: directory)
    for record in records {
      try expectJSONWriterMatchesJSONEncoder(record)
      try expectJSONWriterMatchesJSONEncoder(Card(record: record))
    }
  }
}
