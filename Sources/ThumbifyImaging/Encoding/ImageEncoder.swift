/// The production encoder: WebP, JPEG, PNG or AVIF as `EncodeOptions.format` says.
package struct ImageEncoder: ImageEncoding {
  package var webp: WebPEncoder
  package var jpeg: JPEGEncoder
  package var png: PNGEncoder
  package var avif: AVIFEncoder

  package init(
    webp: WebPEncoder = WebPEncoder(), jpeg: JPEGEncoder = JPEGEncoder(), png: PNGEncoder = PNGEncoder(),
    avif: AVIFEncoder = AVIFEncoder()
  ) {
    self.webp = webp
    self.jpeg = jpeg
    self.png = png
    self.avif = avif
  }

  package func encode(_ image: PixelBuffer, options: EncodeOptions) throws(ImageError) -> [UInt8] {
    switch options.format {
    case .webp: try webp.encode(image, options: options)
    case .jpeg: try jpeg.encode(image, options: options)
    case .png: try png.encode(image, options: options)
    case .avif: try avif.encode(image, options: options)
    }
  }
}
