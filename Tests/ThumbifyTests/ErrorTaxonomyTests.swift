import Testing
import ThumbifyExtracting
import ThumbifyFetching
import ThumbifyFetchingTestSupport
import ThumbifyImaging

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

  /// An invalid URL is recorded as a fetch error (manifests, cards, `LinkPreviewError`): the mapping
  /// keeps the case, so the code and the sentence are the same whichever layer found it.
  @Test(arguments: ["not a url", "javascript:alert(1)", "http://host:99999/", "ftp://example.com/"])
  func anInvalidURLIsTheSameFetchError(url: String) throws {
    let error = try #require(throws: URLNormalizationError.self) { try URLNormalization.normalize(url) }
    let fetchError = FetchError(error)
    #expect(fetchError.code == error.code)
    #expect(fetchError.description == error.description)
    switch (error, fetchError) {
    case (.invalidURL(let a), .invalidURL(let b)): #expect(a == b && error.code == "invalidURL")
    case (.unsupportedScheme(let a), .unsupportedScheme(let b)):
      #expect(a == b && error.code == "unsupportedScheme")
    default: Issue.record("\(error) became \(fetchError)")
    }
  }

  @Test func imageErrorsReadAsSentencesWithTheLibraryMessage() {
    let error = ImageError.corrupt(format: .jpeg, message: "Premature end of JPEG file")
    #expect(error.description == "The JPEG image could not be decoded: Premature end of JPEG file")
    #expect(error.code == "undecodableImage")
  }
}
