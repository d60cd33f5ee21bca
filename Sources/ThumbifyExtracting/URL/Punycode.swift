/// The Punycode encoding of RFC 3492, used to turn internationalized host labels into
/// their ASCII `xn--` form.
enum Punycode {
  private static let base: UInt32 = 36
  private static let tMin: UInt32 = 1
  private static let tMax: UInt32 = 26
  private static let skew: UInt32 = 38
  private static let damp: UInt32 = 700
  private static let initialBias: UInt32 = 72
  private static let initialN: UInt32 = 128

  /// Encodes one label's code points (without the `xn--` prefix), or `nil` on overflow.
  static func encode(_ scalars: [Unicode.Scalar]) -> String? {
    var output: [UInt8] = []
    let input = scalars.map(\.value)
    for value in input where value < 0x80 { output.append(UInt8(value)) }
    let basicCount = UInt32(output.count)
    var handled = basicCount
    if basicCount > 0 { output.append(UInt8(ascii: "-")) }
    var n = initialN
    var delta: UInt32 = 0
    var bias = initialBias
    while handled < UInt32(input.count) {
      guard let next = input.filter({ $0 >= n }).min() else { return nil }
      let (product, overflow) = (next - n).multipliedReportingOverflow(by: handled + 1)
      guard !overflow, delta <= UInt32.max - product else { return nil }
      delta += product
      n = next
      for value in input {
        if value < n {
          guard delta < UInt32.max else { return nil }
          delta += 1
        }
        if value == n {
          var q = delta
          var k = base
          while true {
            let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
            if q < t { break }
            output.append(digit(t + (q - t) % (base - t)))
            q = (q - t) / (base - t)
            k += base
          }
          output.append(digit(q))
          bias = adapt(delta: delta, count: handled + 1, isFirst: handled == basicCount)
          delta = 0
          handled += 1
        }
      }
      delta += 1
      n += 1
    }
    return String(decoding: output, as: UTF8.self)
  }

  private static func digit(_ value: UInt32) -> UInt8 {
    value < 26 ? UInt8(value) + UInt8(ascii: "a") : UInt8(value - 26) + UInt8(ascii: "0")
  }

  private static func adapt(delta: UInt32, count: UInt32, isFirst: Bool) -> UInt32 {
    var delta = isFirst ? delta / damp : delta / 2
    delta += delta / count
    var k: UInt32 = 0
    while delta > ((base - tMin) * tMax) / 2 {
      delta /= base - tMin
      k += base
    }
    return k + (base - tMin + 1) * delta / (delta + skew)
  }
}
