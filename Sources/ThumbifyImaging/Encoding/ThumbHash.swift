import Foundation

/// ThumbHash: a ~25-byte blurry placeholder of an image (Evan Wallace's
/// published algorithm, ported exactly from its reference `rgbaToThumbHash`).
///
/// The image must fit in 100×100; `Placeholder` downscales first.
package enum ThumbHash {
  /// The hash bytes of straight-alpha RGBA (or RGB) pixels at most 100×100.
  package static func encode(_ image: PixelBuffer) -> [UInt8] {
    let width = image.width
    let height = image.height
    let count = width * height
    let channels = image.channels
    var averageR = 0.0
    var averageG = 0.0
    var averageB = 0.0
    var averageA = 0.0
    for i in 0..<count {
      let j = i * channels
      let alpha = channels == 4 ? Double(image.pixels[j + 3]) / 255 : 1
      averageR += alpha / 255 * Double(image.pixels[j])
      averageG += alpha / 255 * Double(image.pixels[j + 1])
      averageB += alpha / 255 * Double(image.pixels[j + 2])
      averageA += alpha
    }
    if averageA > 0 {
      averageR /= averageA
      averageG /= averageA
      averageB /= averageA
    }
    let hasAlpha = averageA < Double(count)
    let luminanceLimit = hasAlpha ? 5.0 : 7.0
    let longest = Double(max(width, height))
    let lx = max(1, Int(jsRound(luminanceLimit * Double(width) / longest)))
    let ly = max(1, Int(jsRound(luminanceLimit * Double(height) / longest)))
    var l = [Double](repeating: 0, count: count)
    var p = [Double](repeating: 0, count: count)
    var q = [Double](repeating: 0, count: count)
    var a = [Double](repeating: 0, count: count)
    for i in 0..<count {
      let j = i * channels
      let alpha = channels == 4 ? Double(image.pixels[j + 3]) / 255 : 1
      let r = averageR * (1 - alpha) + alpha / 255 * Double(image.pixels[j])
      let g = averageG * (1 - alpha) + alpha / 255 * Double(image.pixels[j + 1])
      let b = averageB * (1 - alpha) + alpha / 255 * Double(image.pixels[j + 2])
      l[i] = (r + g + b) / 3
      p[i] = (r + g) / 2 - b
      q[i] = r - g
      a[i] = alpha
    }
    let (lDC, lAC, lScale) = encodeChannel(l, width, height, max(3, lx), max(3, ly))
    let (pDC, pAC, pScale) = encodeChannel(p, width, height, 3, 3)
    let (qDC, qAC, qScale) = encodeChannel(q, width, height, 3, 3)
    let alphaChannel = hasAlpha ? encodeChannel(a, width, height, 5, 5) : (0, [], 0)

    let isLandscape = width > height
    let header24 =
      Int(jsRound(63 * lDC)) | (Int(jsRound(31.5 + 31.5 * pDC)) << 6)
      | (Int(jsRound(31.5 + 31.5 * qDC)) << 12) | (Int(jsRound(31 * lScale)) << 18)
      | ((hasAlpha ? 1 : 0) << 23)
    let header16 =
      (isLandscape ? ly : lx) | (Int(jsRound(63 * pScale)) << 3) | (Int(jsRound(63 * qScale)) << 9)
      | ((isLandscape ? 1 : 0) << 15)
    var hash: [UInt8] = [
      UInt8(header24 & 255), UInt8((header24 >> 8) & 255), UInt8((header24 >> 16) & 255),
      UInt8(header16 & 255), UInt8((header16 >> 8) & 255),
    ]
    let acStart = hasAlpha ? 6 : 5
    if hasAlpha {
      hash.append(UInt8(Int(jsRound(15 * alphaChannel.0)) | (Int(jsRound(15 * alphaChannel.2)) << 4)))
    }
    var acIndex = 0
    for ac in hasAlpha ? [lAC, pAC, qAC, alphaChannel.1] : [lAC, pAC, qAC] {
      for f in ac {
        let slot = acStart + (acIndex >> 1)
        if slot >= hash.count { hash.append(0) }
        hash[slot] |= UInt8(Int(jsRound(15 * f)) << ((acIndex & 1) << 2))
        acIndex += 1
      }
    }
    return hash
  }

  /// The average colour a hash encodes, as the reference `thumbHashToAverageRGBA` (components 0–1).
  package static func averageColor(of hash: [UInt8]) -> (r: Double, g: Double, b: Double, a: Double)? {
    guard hash.count >= 5 else { return nil }
    let header = Int(hash[0]) | (Int(hash[1]) << 8) | (Int(hash[2]) << 16)
    let l = Double(header & 63) / 63
    let p = Double((header >> 6) & 63) / 31.5 - 1
    let q = Double((header >> 12) & 63) / 31.5 - 1
    let hasAlpha = (header >> 23) != 0
    if hasAlpha && hash.count < 6 { return nil }
    let a = hasAlpha ? Double(hash[5] & 15) / 15 : 1
    let b = l - 2 / 3 * p
    let r = (3 * l - b + q) / 2
    let g = r - q
    return (max(0, min(1, r)), max(0, min(1, g)), max(0, min(1, b)), a)
  }

  /// JavaScript's `Math.round`: halves round towards +∞.
  private static func jsRound(_ value: Double) -> Double { (value + 0.5).rounded(.down) }

  /// The DCT of one channel: DC, normalised AC terms and their scale.
  ///
  /// Separable: each row's sums against the horizontal cosines first, then each term's sum of
  /// those against the vertical cosines. The reference sums `pixel · fx · fy` over all pixels per
  /// term, ~30× the multiply-adds (0.8 % of a card's CPU time); the two orders differ only in the
  /// last bits of a double, far below the hash's 4- and 6-bit quantisation.
  private static func encodeChannel(_ channel: [Double], _ width: Int, _ height: Int, _ nx: Int, _ ny: Int)
    -> (Double, [Double], Double)
  {
    var dc = 0.0
    var ac: [Double] = []
    var scale = 0.0
    let fxs = (0..<nx).map { cx in
      (0..<width).map { x in cos(Double.pi / Double(width) * Double(cx) * (Double(x) + 0.5)) }
    }
    // rowSums[cx * height + y] = Σₓ channel[x, y] · fx(cx, x)
    var rowSums = [Double](repeating: 0, count: nx * height)
    channel.withUnsafeBufferPointer { channel in
      for cx in 0..<nx {
        fxs[cx].withUnsafeBufferPointer { fx in
          for y in 0..<height {
            let row = channel.baseAddress! + y * width
            var sum = 0.0
            for x in 0..<width { sum += row[x] * fx[x] }
            rowSums[cx * height + y] = sum
          }
        }
      }
    }
    for cy in 0..<ny {
      let fys = (0..<height).map { y in cos(Double.pi / Double(height) * Double(cy) * (Double(y) + 0.5)) }
      var cx = 0
      while cx * ny < nx * (ny - cy) {
        var f = 0.0
        for y in 0..<height { f += rowSums[cx * height + y] * fys[y] }
        f /= Double(width * height)
        if cx > 0 || cy > 0 {
          ac.append(f)
          scale = max(scale, abs(f))
        } else {
          dc = f
        }
        cx += 1
      }
    }
    if scale > 0 {
      for i in ac.indices { ac[i] = 0.5 + 0.5 / scale * ac[i] }
    }
    return (dc, ac, scale)
  }
}
