/// A limit given as a count or as a share of a total: `5` or `2.5%` (`--max-failures`, `--prune-max`).
public enum Threshold: Sendable, Equatable, CustomStringConvertible {
  /// At most this many.
  case count(Int)
  /// At most this percentage (0–100) of the total.
  case percent(Double)

  /// Parses `n` (a whole number ≥ 0) or `p%` (a number from 0 to 100, then `%`).
  public init?(_ text: String) {
    if text.hasSuffix("%") {
      guard let value = Double(text.dropLast()), value.isFinite, (0...100).contains(value) else { return nil }
      self = .percent(value)
    } else {
      guard let value = Int(text), value >= 0 else { return nil }
      self = .count(value)
    }
  }

  /// Whether `count` of `total` stays within the limit.
  public func allows(_ count: Int, of total: Int) -> Bool {
    switch self {
    case .count(let limit): count <= limit
    // Compared in whole numbers, so that 20 % of 5 allows exactly 1 (no rounding surprises).
    case .percent(let percent): Double(count) * 100 <= percent * Double(total)
    }
  }

  public var description: String {
    switch self {
    case .count(let limit): "\(limit)"
    case .percent(let percent):
      percent == percent.rounded() ? "\(Int(percent))%" : "\(percent)%"
    }
  }
}
