/// Parses durations written as `90`, `90s`, `30m`, `12h`, `7d` or `2w` into seconds.
enum DurationParser {
  static func seconds(_ text: String) -> Double? {
    let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
    var number = Substring(text)
    var multiplier = 1.0
    if let last = text.last, let unit = units[last] {
      number = number.dropLast()
      multiplier = unit
    }
    guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
    return value * multiplier
  }
}
