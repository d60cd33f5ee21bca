import CTurboJPEG
import Testing
import ThumbifyImaging
import ThumbifyImagingTestSupport
import ThumbifySystemTestSupport

@Suite("CMYK JPEG colours", .offThePool)
struct CMYKTests {
  @Test(arguments: ["cmyk-adobe", "cmyk-plain"])
  func matchesPillowsConversion(name: String) throws {
    // Given a 64×64 CMYK JPEG written by Pillow and Pillow's own RGB conversion of it
    let jpeg = try TestImages.fixture("\(name).jpg")
    let reference = try ImageDecoder().decode(
      try TestImages.fixture("\(name).reference.png"), options: DecodeOptions())

    // When thumbify decodes the JPEG
    let image = try ImageDecoder().decode(jpeg, options: DecodeOptions())

    // Then every pixel is within rounding of Pillow's
    #expect(image.buffer.width == 64 && image.buffer.height == 64 && image.buffer.channels == 3)
    #expect(reference.buffer.channels == 3)
    let worst = zip(image.buffer.pixels, reference.buffer.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 255
    #expect(worst <= 1)
  }

  @Test func ycckIsConvertedLikeAdobeCMYK() throws {
    // Given flat inverted-CMYK patches (255 = no ink) compressed by TurboJPEG, which stores them as YCCK
    let patches: [[UInt8]] = [
      [0, 255, 255, 255], [255, 0, 255, 255], [255, 255, 0, 255], [255, 255, 255, 128],
    ]
    var samples: [UInt8] = []
    for y in 0..<32 {
      for x in 0..<32 { samples += patches[(y / 16) * 2 + x / 16] }
    }
    let jpeg = TestImages.jpeg(
      samples, width: 32, height: 32, pixelFormat: TJPF_CMYK, subsampling: TJSAMP_444)

    // When it is decoded
    let image = try ImageDecoder().decode(jpeg, options: DecodeOptions())

    // Then cyan ink is cyan, magenta is magenta, yellow is yellow and half black is mid gray
    let expected: [[UInt8]] = [[0, 255, 255], [255, 0, 255], [255, 255, 0], [128, 128, 128]]
    for (index, (x, y)) in [(8, 8), (24, 8), (8, 24), (24, 24)].enumerated() {
      #expect(TestImages.isClose(TestImages.pixel(image.buffer, x, y), expected[index], tolerance: 3))
    }
  }
}
