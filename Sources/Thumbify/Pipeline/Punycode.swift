/// Punycode (RFC 3492), the ASCII encoding of internationalized host name labels.
enum Punycode {
  private static let base = 36
  private static let tMin = 1
  private static let tMax = 26
  private static let skew = 38
  private static let damp = 700
  private static let initialBias = 72
  private static let initialN = 0x80

  /// Encodes one label (without the `xn--` prefix); `nil` on overflow.
  static func encode(_ label: String) -> String? {
    let input = label.unicodeScalars.map { Int($0.value) }
    var output = input.filter { $0 < 0x80 }.map { UInt8($0) }
    let basicCount = output.count
    var handled = basicCount
    if basicCount > 0 { output.append(UInt8(ascii: "-")) }
    var n = initialN
    var delta = 0
    var bias = initialBias
    while handled < input.count {
      guard let next = input.filter({ $0 >= n }).min() else { return nil }
      let (product, overflow) = (next - n).multipliedReportingOverflow(by: handled + 1)
      guard !overflow, delta <= Int(Int32.max) - product else { return nil }
      delta += product
      n = next
      for scalar in input {
        if scalar < n { delta += 1 }
        guard scalar == n else { continue }
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
        bias = adapt(delta, numPoints: handled + 1, isFirstTime: handled == basicCount)
        delta = 0
        handled += 1
      }
      delta += 1
      n += 1
    }
    return String(decoding: output, as: UTF8.self)
  }

  private static func digit(_ value: Int) -> UInt8 {
    value < 26 ? UInt8(value) + UInt8(ascii: "a") : UInt8(value - 26) + UInt8(ascii: "0")
  }

  private static func adapt(_ delta: Int, numPoints: Int, isFirstTime: Bool) -> Int {
    var delta = isFirstTime ? delta / damp : delta / 2
    delta += delta / numPoints
    var k = 0
    while delta > ((base - tMin) * tMax) / 2 {
      delta /= base - tMin
      k += base
    }
    return k + (base - tMin + 1) * delta / (delta + skew)
  }
}
