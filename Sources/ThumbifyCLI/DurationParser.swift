/// Parses durations written as `90`, `90s`, `30m`, `12h`, `7d` or `2w` into seconds: every option that
/// asks for a time (`--timeout`, `--max-age`, `--grace`) reads it here, so they all accept the same words.
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

  /// The duration option `--<long>` in seconds, or `nil` when it was not given and has no default.
  ///
  /// - Parameters:
  ///   - allowsZero: whether `0` is meaningful (`--grace 0`: no grace) or not (`--timeout 0`).
  ///   - maximum: the largest accepted value in seconds, if any.
  static func value(
    _ long: String, in arguments: ParsedArguments, allowsZero: Bool, maximum: Double? = nil
  ) throws(UsageError) -> Double? {
    guard let text = arguments.value(long) else { return nil }
    let seconds = seconds(text)
    if let seconds, allowsZero || seconds > 0, maximum.map({ seconds <= $0 }) ?? true { return seconds }
    var accepted = allowsZero ? "0 or more" : "above 0"
    if let maximum { accepted += " and at most \(words(maximum))" }
    throw UsageError(
      "The value '\(text)' is invalid for '--\(long) <duration>'",
      hint: "A duration is seconds or a number with s, m, h, d or w (30s, 2m, 1h, 7d); this one must be "
        + "\(accepted).")
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
