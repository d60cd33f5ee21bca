import Testing
import Thumbify

@Suite("Public API: LinkPreviewError's codes are LinkPresentation's")
struct PublicLinkPreviewErrorTests {
  @Test func theCodesHaveLPErrorsRawValues() {
    // LPError.h: LPErrorUnknown = 1, then MetadataFetchFailed, …Cancelled, …TimedOut.
    #expect(LinkPreviewError.Code.unknown.rawValue == 1)
    #expect(LinkPreviewError.Code.metadataFetchFailed.rawValue == 2)
    #expect(LinkPreviewError.Code.metadataFetchCancelled.rawValue == 3)
    #expect(LinkPreviewError.Code.metadataFetchTimedOut.rawValue == 4)
  }

  @Test(arguments: [
    (FetchError.cancelled, LinkPreviewError.Code.metadataFetchCancelled),
    (.timedOut("Operation timed out after 1000 milliseconds"), .metadataFetchTimedOut),
    (.other("no curl"), .unknown),
    (.invalidURL("x"), .metadataFetchFailed), (.unsupportedScheme("ftp"), .metadataFetchFailed),
    (.dns("Could not resolve host"), .metadataFetchFailed), (.connect("refused"), .metadataFetchFailed),
    (.tls("bad certificate"), .metadataFetchFailed), (.transfer("reset"), .metadataFetchFailed),
    (.tooLarge(limit: 10), .metadataFetchFailed), (.httpStatus(500), .metadataFetchFailed),
    (.tooManyRedirects(5), .metadataFetchFailed), (.blockedByRobots("u"), .metadataFetchFailed),
    (.blockedPrivateAddress("10.0.0.1"), .metadataFetchFailed), (.hostSkipped("h:80"), .metadataFetchFailed),
  ])
  func eachFetchErrorMapsOntoOneCodeAndKeepsItsCause(cause: FetchError, code: LinkPreviewError.Code) {
    let error = LinkPreviewError(.fetch(cause))
    #expect(error.code == code)
    #expect(error.cause == .fetch(cause))
    #expect(error.causeCode == cause.code)
    #expect(error.description == cause.description)
  }

  @Test func imageFailuresAreFetchFailures() {
    let undecodable = LinkPreviewError(.thumbnail(.image(.unsupportedFormat(nil))))
    #expect(undecodable.code == .metadataFetchFailed)
    #expect(undecodable.causeCode == ThumbnailError.image(.unsupportedFormat(nil)).code)
    #expect(LinkPreviewError(.noImage).code == .metadataFetchFailed)
    #expect(LinkPreviewError(.noImage).causeCode == "noImage")
  }

  @Test func everyCodeIsReached() {
    let reached = Set(
      [FetchError.cancelled, .timedOut(""), .other(""), .dns("")].map { LinkPreviewError(.fetch($0)).code })
    #expect(reached == Set(LinkPreviewError.Code.allCases))
  }
}
