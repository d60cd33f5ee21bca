import Glibc

/// Converts legacy-encoded bytes to UTF-8 with glibc's iconv.
///
/// The corresponding C functions are `iconv_open`, `iconv` and `iconv_close`.
enum IconvConverter {
  /// The result of one conversion.
  struct Output {
    /// The UTF-8 bytes; each invalid input byte became U+FFFD.
    var bytes: [UInt8]
    /// Whether any input byte was invalid in the source encoding.
    var hadInvalidBytes: Bool
  }

  /// Converts `input` from the iconv encoding `encoding` to UTF-8, or returns `nil` when
  /// iconv does not know the encoding.
  static func convert(_ input: UnsafeBufferPointer<UInt8>, from encoding: String) -> Output? {
    let descriptor = iconv_open("UTF-8", encoding)
    guard let descriptor, Int(bitPattern: UnsafeRawPointer(descriptor)) != -1 else { return nil }
    defer { iconv_close(descriptor) }
    guard let base = input.baseAddress, !input.isEmpty else {
      return Output(bytes: [], hadInvalidBytes: false)
    }

    var output = [UInt8](repeating: 0, count: input.count * 2 + 64)
    var written = 0
    var hadInvalidBytes = false
    var source: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(mutating: base)
      .assumingMemoryBound(to: CChar.self)
    var sourceLeft = input.count

    /// One `iconv` call into the free tail of `output`; `flush` resets the shift state.
    func step(flush: Bool) -> (status: Int, error: Int32) {
      if output.count - written < 64 { output.append(contentsOf: repeatElement(0, count: output.count)) }
      let capacity = output.count - written
      var targetLeft = capacity
      let status = output.withUnsafeMutableBytes { buffer -> Int in
        var target: UnsafeMutablePointer<CChar>? = (buffer.baseAddress! + written)
          .assumingMemoryBound(to: CChar.self)
        return flush
          ? iconv(descriptor, nil, nil, &target, &targetLeft)
          : iconv(descriptor, &source, &sourceLeft, &target, &targetLeft)
      }
      let error = errno
      written += capacity - targetLeft
      return (status, error)
    }

    while sourceLeft > 0 {
      let (status, error) = step(flush: false)
      guard status == -1 else { continue }
      switch error {
      case E2BIG:
        continue
      case EILSEQ, EINVAL:
        // An invalid or truncated sequence: one replacement character, then skip one byte.
        hadInvalidBytes = true
        if output.count - written < 3 { output.append(contentsOf: repeatElement(0, count: output.count)) }
        output[written] = 0xEF
        output[written + 1] = 0xBF
        output[written + 2] = 0xBD
        written += 3
        source = source.map { $0 + 1 }
        sourceLeft -= 1
      default:
        hadInvalidBytes = true
        sourceLeft = 0
      }
    }
    _ = step(flush: true)
    output.removeLast(output.count - written)
    return Output(bytes: output, hadInvalidBytes: hadInvalidBytes)
  }
}
