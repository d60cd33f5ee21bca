/// Parses durations written as `90`, `90s`, `30m`, `12h`, `7d` or `2w` into seconds: every option that
/// asks for a time (`--timeout`, `--max-age`, `--grace`; `Option.duration`) reads it here, so they all accept
/// the same words.
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

  /// `3600` → `1h`, for messages.
  static func words(_ seconds: Double) -> String {
    for (unit, size) in [("w", 604_800.0), ("d", 86_400), ("h", 3_600), ("m", 60)]
    where seconds >= size && seconds.truncatingRemainder(dividingBy: size) == 0 {
      return "\(Int(seconds / size))\(unit)"
    }
    return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
  }
}
