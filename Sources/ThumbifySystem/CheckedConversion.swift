/// Conversions for numbers that may come from untrusted input (a header, an attribute, an option):
/// in Swift `Int(someDouble)` traps on NaN, infinity or a value out of range, so every such
/// conversion goes through here (docs/errors.md, "Untrusted numbers").
extension Int {
  /// `value` rounded by `rule` and clamped into `range`; NaN gives `range.lowerBound`.
  @inlinable
  package init(
    clamping value: Double, rounding rule: FloatingPointRoundingRule = .towardZero,
    in range: ClosedRange<Int> = Int.min...Int.max
  ) {
    let rounded = value.rounded(rule)
    if rounded.isNaN || rounded <= Double(range.lowerBound) {
      self = range.lowerBound
    } else if rounded >= Double(range.upperBound) {
      self = range.upperBound
    } else {
      self = Int(rounded)
    }
  }
}
