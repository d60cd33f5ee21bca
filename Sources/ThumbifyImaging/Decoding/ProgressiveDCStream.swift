/// A progressive JPEG rewritten so a 1/8-scale decode skips entropy-decoding the AC scans
/// of components that such a decode reconstructs from their DC coefficients alone.
///
/// At DCT scale 1/8 libjpeg's inverse DCT of a component whose scaled block is 1×1 reads only
/// the DC coefficient, yet libjpeg-turbo still entropy-decodes every AC scan (refinement scans
/// visit all 63 coefficients of every block). Dropping those scans is not enough: libjpeg 2.1's
/// block smoothing, used when AC coefficients are missing, then recomputes DC values from the
/// neighbours (up to 20 levels apart on a photo). So a component's AC scans are replaced, at the
/// first one, by one first-pass scan per run of coefficients that end with the same precision
/// (normally one scan, coefficients 1–63, Al 0), each a run of end-of-band symbols covering every
/// block under its own Huffman table (the original table is defined again after it). Every AC
/// coefficient stays zero and libjpeg's `coef_bits` end as for the original scans, so smoothing
/// is decided as before: the 1/8 decode is the original's, bit for bit (tested).
///
/// DC scans (Ss = 0), every marker segment and the AC scans of other components are copied.
/// Only SOF2 (progressive Huffman, 8-bit) without restart intervals is rewritten; anything
/// unexpected — another frame type, a DRI, a malformed segment, data that ends before its EOI
/// marker (a cut-off file keeps failing as it did), more than 500 scans (TurboJPEG's
/// `TJFLAG_LIMITSCANS` keeps refusing it) — gives `nil` and the original is decoded.
/// Not checked: the entropy-coded data of the replaced scans, so a file whose only damage is
/// inside them decodes (to its undamaged 1/8 image) where the full stream may fail.
enum ProgressiveDCStream {
  /// A frame component's sampling factors.
  struct Component {
    var horizontal: Int
    var vertical: Int
  }

  /// Whether a 1/8-scale decode reconstructs `component` from its DC coefficients alone.
  ///
  /// Raw (planar) output decodes every component with a 1×1 inverse DCT. For RGB output
  /// libjpeg scales a subsampled component up through a larger inverse DCT instead of
  /// upsampling it (`jpeg_calc_output_dimensions`: the size doubles while the largest
  /// sampling factors are multiples of twice the component's), which reads AC coefficients:
  /// 4:2:0 chroma is decoded 2×2 per block.
  static func isDecodedFromDC(_ component: Component, maximum: Component, isRawOutput: Bool) -> Bool {
    isRawOutput || maximum.horizontal % (2 * component.horizontal) != 0
      || maximum.vertical % (2 * component.vertical) != 0
  }

  /// The rewritten stream, or `nil` when `data` is not a complete progressive JPEG this handles.
  ///
  /// - Parameter emptiesACScans: whether the AC scans of a component (given it and the frame's
  ///   largest sampling factors) may be emptied.
  static func stream(
    _ data: [UInt8], emptiesACScans: (_ component: Component, _ maximum: Component) -> Bool
  ) -> [UInt8]? {
    guard data.count >= 4, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
    var pieces: [Piece] = []
    var frame: (size: Size, ids: [UInt8], components: [Component])?
    var acTables: [UInt8: ArraySlice<UInt8>] = [:]  // table id → its DHT entry (Th, 16 counts, symbols)
    // The precision (Al) each AC coefficient of each component has after the last scan, -1 if never sent.
    var finalBits: [[Int]] = []
    var scans = 0
    var offset = 2
    walk: while true {
      guard offset < data.count, data[offset] == 0xFF else { return nil }
      while offset < data.count, data[offset] == 0xFF { offset += 1 }  // fill bytes
      guard offset < data.count else { return nil }
      let marker = data[offset]
      offset += 1
      if marker == 0xD9 { break walk }
      guard offset + 2 <= data.count else { return nil }
      let length = Int(data[offset]) << 8 | Int(data[offset + 1])
      guard length >= 2, offset + length <= data.count else { return nil }
      let segment = data[(offset + 2)..<(offset + length)]
      let header = (offset - 2)..<(offset + length)
      offset += length
      switch marker {
      case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
        guard marker == 0xC2, frame == nil, let parsed = Self.frame(segment) else { return nil }
        frame = parsed
        finalBits = parsed.components.map { _ in [Int](repeating: -1, count: 64) }
        pieces.append(.bytes(header))
      case 0xDD:
        guard segment.count == 2, segment.allSatisfy({ $0 == 0 }) else { return nil }
        pieces.append(.bytes(header))
      case 0xC4:
        guard let tables = Self.tables(segment) else { return nil }
        for (id, table) in tables where id >> 4 == 1 { acTables[id & 0x0F] = table }
        pieces.append(.bytes(header))
      case 0xDA:
        // More than TJFLAG_LIMITSCANS allows: left for TurboJPEG to refuse (the rewrite has fewer scans).
        scans += 1
        guard scans <= 500, let frame, let scan = Self.scan(segment, ids: frame.ids) else { return nil }
        let end = Self.entropyEnd(data, from: offset)
        guard end < data.count else { return nil }  // the data ends inside the scan
        let maximum = Component(
          horizontal: frame.components.map(\.horizontal).max() ?? 1,
          vertical: frame.components.map(\.vertical).max() ?? 1)
        if scan.start > 0, let index = scan.component, emptiesACScans(frame.components[index], maximum) {
          for k in scan.start...scan.end { finalBits[index][k] = scan.low }
          let component = frame.components[index]
          let blocks =
            Self.blocks(frame.size.width * component.horizontal, per: maximum.horizontal * 8)
            * Self.blocks(frame.size.height * component.vertical, per: maximum.vertical * 8)
          pieces.append(
            .emptied(
              index: index, id: frame.ids[index], tables: scan.tables, blocks: blocks,
              restoring: acTables[scan.tables & 0x0F]))
        } else {
          pieces.append(.bytes(header.lowerBound..<end))
        }
        offset = end
      case 0x01, 0xD0...0xD8: return nil  // no standalone markers between segments
      default: pieces.append(.bytes(header))
      }
    }
    guard frame != nil else { return nil }
    return Self.assemble(pieces, of: data, finalBits: finalBits)
  }

  /// A stretch of the rewritten stream: bytes of the original, or an emptied AC scan.
  private enum Piece {
    case bytes(Range<Int>)
    /// An AC scan of component `index` (frame id `id`, table selector byte `tables`) of `blocks` blocks;
    /// `restoring` is the AC table with the scan's id defined at that point.
    case emptied(index: Int, id: UInt8, tables: UInt8, blocks: Int, restoring: ArraySlice<UInt8>?)
  }

  /// The stream from `pieces`: at the first emptied scan of a component, one first-pass scan of
  /// end-of-band runs per run of AC coefficients that end with the same precision (so libjpeg's
  /// `coef_bits` end as for the original scans); its later emptied scans are left out.
  private static func assemble(_ pieces: [Piece], of data: [UInt8], finalBits: [[Int]]) -> [UInt8] {
    var output: [UInt8] = [0xFF, 0xD8]
    output.reserveCapacity(data.count / 2)
    var done = Set<Int>()
    for piece in pieces {
      switch piece {
      case .bytes(let range): output += data[range]
      case .emptied(let index, let id, let tables, let blocks, let restoring):
        guard done.insert(index).inserted else { continue }
        output += Self.endOfBandTable(id: tables & 0x0F)
        let bits = finalBits[index]
        var start = 1
        while start < 64 {
          var end = start
          while end + 1 < 64, bits[end + 1] == bits[start] { end += 1 }
          if bits[start] >= 0 {
            output += [
              0xFF, 0xDA, 0x00, 0x08, 0x01, id, tables, UInt8(start), UInt8(end), UInt8(bits[start]),
            ]
            output += Self.endOfBandRuns(blocks)
          }
          start = end + 1
        }
        if let restoring { output += [0xFF, 0xC4] + Self.u16(restoring.count + 2) + restoring }
      }
    }
    return output + [0xFF, 0xD9]
  }

  /// Size, component ids and sampling factors of an 8-bit frame header, or `nil`.
  private static func frame(_ segment: ArraySlice<UInt8>) -> (
    size: Size, ids: [UInt8], components: [Component]
  )? {
    let bytes = Array(segment)
    guard bytes.count >= 6, bytes[0] == 8 else { return nil }
    let height = Int(bytes[1]) << 8 | Int(bytes[2])
    let width = Int(bytes[3]) << 8 | Int(bytes[4])
    let count = Int(bytes[5])
    guard width > 0, height > 0, count > 0, bytes.count == 6 + 3 * count else { return nil }
    var ids: [UInt8] = []
    var components: [Component] = []
    for index in 0..<count {
      let factors = bytes[6 + 3 * index + 1]
      let (h, v) = (Int(factors >> 4), Int(factors & 0x0F))
      guard (1...4).contains(h), (1...4).contains(v) else { return nil }
      ids.append(bytes[6 + 3 * index])
      components.append(Component(horizontal: h, vertical: v))
    }
    return (Size(width: width, height: height), ids, components)
  }

  /// The Huffman tables of a DHT segment, keyed by their Tc/Th byte, or `nil` when malformed.
  private static func tables(_ segment: ArraySlice<UInt8>) -> [(UInt8, ArraySlice<UInt8>)]? {
    var tables: [(UInt8, ArraySlice<UInt8>)] = []
    var index = segment.startIndex
    while index < segment.endIndex {
      guard index + 17 <= segment.endIndex else { return nil }
      let count = segment[(index + 1)..<(index + 17)].reduce(0) { $0 + Int($1) }
      guard index + 17 + count <= segment.endIndex else { return nil }
      tables.append((segment[index], segment[index..<(index + 17 + count)]))
      index += 17 + count
    }
    return tables
  }

  /// A scan header's facts: its single component's index (nil for an interleaved scan), its
  /// table selector byte (Td, Ta), its spectral range and its successive-approximation low bit.
  private static func scan(_ segment: ArraySlice<UInt8>, ids: [UInt8])
    -> (component: Int?, tables: UInt8, start: Int, end: Int, low: Int)?
  {
    let bytes = Array(segment)
    guard let count = bytes.first, count >= 1, bytes.count == 1 + 2 * Int(count) + 3 else { return nil }
    let (start, end) = (Int(bytes[1 + 2 * Int(count)]), Int(bytes[2 + 2 * Int(count)]))
    let low = Int(bytes[3 + 2 * Int(count)] & 0x0F)
    guard start <= end, end < 64 else { return nil }
    guard count == 1 else { return start == 0 ? (nil, 0, start, end, low) : nil }
    guard let index = ids.firstIndex(of: bytes[1]) else { return nil }
    return (index, bytes[2], start, end, low)
  }

  /// The index of the marker that ends the entropy-coded data starting at `start`
  /// (an 0xFF not followed by a stuffed 0x00 or a restart marker), or `data.count`.
  private static func entropyEnd(_ data: [UInt8], from start: Int) -> Int {
    var index = start
    while index + 1 < data.count {
      if data[index] == 0xFF {
        let next = data[index + 1]
        if next != 0x00 && !(0xD0...0xD7).contains(next) { return index }
        index += 2
      } else {
        index += 1
      }
    }
    return data.count
  }

  /// ⌈`samples` / `size`⌉: libjpeg's `width_in_blocks`/`height_in_blocks` (`jdiv_round_up`).
  private static func blocks(_ samples: Int, per size: Int) -> Int { (samples + size - 1) / size }

  /// A DHT segment defining AC table `id` with the 15 end-of-band-run symbols EOB0…EOB14
  /// (run/size bytes 0x00, 0x10, …, 0xE0), all 4-bit codes: EOBr is the code r.
  private static func endOfBandTable(id: UInt8) -> [UInt8] {
    var counts = [UInt8](repeating: 0, count: 16)
    counts[3] = 15
    let symbols = (0..<15).map { UInt8($0 << 4) }
    return [0xFF, 0xC4] + u16(2 + 17 + 15) + [0x10 | id] + counts + symbols
  }

  /// The entropy-coded data of a scan whose `blocks` blocks are all end-of-band: EOB runs of at
  /// most 32767 blocks (EOB14 + 14 bits), each EOBr followed by r bits of run − 2^r,
  /// padded with one bits and byte-stuffed.
  static func endOfBandRuns(_ blocks: Int) -> [UInt8] {
    var bits = BitWriter()
    var remaining = blocks
    while remaining > 0 {
      let run = min(remaining, 32767)
      let r = Int.bitWidth - 1 - run.leadingZeroBitCount
      bits.write(r, count: 4)
      bits.write(run - (1 << r), count: r)
      remaining -= run
    }
    return bits.finished()
  }

  private static func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

  /// Writes bits most significant first into stuffed JPEG entropy-coded bytes.
  private struct BitWriter {
    var bytes: [UInt8] = []
    var accumulator = 0
    var count = 0

    mutating func write(_ value: Int, count bitCount: Int) {
      for shift in stride(from: bitCount - 1, through: 0, by: -1) {
        accumulator = accumulator << 1 | (value >> shift) & 1
        count += 1
        if count == 8 { flush() }
      }
    }

    mutating func flush() {
      bytes.append(UInt8(accumulator))
      if accumulator == 0xFF { bytes.append(0x00) }
      accumulator = 0
      count = 0
    }

    mutating func finished() -> [UInt8] {
      if count > 0 {
        accumulator = accumulator << (8 - count) | ((1 << (8 - count)) - 1)
        count = 8
        flush()
      }
      return bytes
    }
  }
}
