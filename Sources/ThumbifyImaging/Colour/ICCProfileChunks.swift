/// Reassembles an ICC profile split over JPEG APP2 segments (ICC.1, annex B.4).
///
/// Each segment is `ICC_PROFILE\0`, its sequence number (from 1), the segment count, then its
/// part of the profile. Parts are joined in sequence order whatever order the segments came in;
/// a missing, repeated or out-of-range number, counts that disagree, or more than
/// ``ColorManagement/maxProfileBytes`` in all make the profile malformed (the image is then
/// treated as sRGB, with a warning), without holding more than the cap.
struct ICCProfileChunks {
  static let signature = Array("ICC_PROFILE".utf8) + [0]

  private var parts: [Int: [UInt8]] = [:]
  private var count: Int?
  private var total = 0
  private var problem: String?

  /// Takes one APP2 payload that starts with ``signature``.
  mutating func add(_ segment: ByteReader) {
    guard problem == nil else { return }
    let header = Self.signature.count
    guard let number = try? segment.u8(header), let declared = try? segment.u8(header + 1),
      let part = try? segment.window(at: header + 2, count: segment.count - header - 2)
    else {
      problem = "An ICC_PROFILE segment is shorter than its header."
      return
    }
    if count == nil { count = Int(declared) }
    guard Int(declared) == count, declared > 0 else {
      problem = "The ICC_PROFILE segments disagree on their count (\(count ?? 0) and \(declared))."
      return
    }
    guard number >= 1, number <= declared else {
      problem = "An ICC_PROFILE segment is number \(number) of \(declared)."
      return
    }
    guard parts[Int(number)] == nil else {
      problem = "ICC_PROFILE segment \(number) appears twice."
      return
    }
    total += part.count
    guard total <= ColorManagement.maxProfileBytes else {
      problem = "The ICC_PROFILE segments hold more than \(ColorManagement.maxProfileBytes) bytes."
      return
    }
    parts[Int(number)] = part.contents
  }

  /// The profile, `nil` when there were no segments.
  var profile: EmbeddedProfile? {
    if let problem { return .malformed(.malformedChunks(format: .jpeg, message: problem)) }
    guard let count else { return nil }
    var profile = [UInt8]()
    profile.reserveCapacity(total)
    for number in 1...count {
      guard let part = parts[number] else {
        return .malformed(
          .malformedChunks(format: .jpeg, message: "ICC_PROFILE segment \(number) of \(count) is missing."))
      }
      profile += part
    }
    return .bytes(profile)
  }
}
