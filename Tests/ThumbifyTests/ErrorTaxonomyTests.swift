import Testing

@testable import Thumbify
@testable import ThumbifyExtracting
@testable import ThumbifyFetching
@testable import ThumbifyImaging
@testable import ThumbifyStore
@testable import ThumbifySystem
@testable import ThumbifyTestSupport

@Suite("Error taxonomy")
struct ErrorTaxonomyTests {
  @Test(arguments: [
    (FetchError.cancelled, FetchError.Family.cancelled),
    (.stopped, .cancelled),
    (.timedOut("Operation timed out"), .timedOut),
    (.dns("Could not resolve host"), .failed),
    (.httpStatus(404), .failed),
    (.other("?"), .unknown),
  ])
  func fetchErrorsMapOntoLinkPresentationFamilies(error: FetchError, family: FetchError.Family) {
    #expect(error.family == family)
  }

  @Test func imageErrorsReadAsSentencesWithTheLibraryMessage() {
    let error = ImageError.corrupt(format: .jpeg, message: "Premature end of JPEG file")
    #expect(error.description == "The JPEG image could not be decoded: Premature end of JPEG file")
    #expect(error.code == "undecodableImage")
  }
}
