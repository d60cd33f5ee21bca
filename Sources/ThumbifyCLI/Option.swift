import Thumbify

/// Why an option's value was refused: said after "The value 'x' is invalid for '--name <value>'".
struct InvalidValue: Error, Sendable {
  /// Appended to the message after a colon (`it is not a readable file`).
  var reason: String?
  /// What to give instead, on the line below.
  var hint: String?

  init(reason: String? = nil, hint: String? = nil) {
    self.reason = reason
    self.hint = hint
  }
}

/// An option with a value, declared once: the `OptionSpec` that the help, the completion scripts, the man
/// page and docs/cli.md are made from, and how its text becomes a `Value`.
///
/// Commands read their options only through these (`ParsedArguments.value(_:)`), never by name, so an
/// option cannot be read under a name it was not declared with, and every refused value is reported in
/// one shape, as swift-argument-parser does: `The value 'x' is invalid for '--name <value>'`.
struct Option<Value: Sendable>: Sendable {
  private(set) var spec: OptionSpec
  private let convert: @Sendable (String) throws(InvalidValue) -> Value

  init(_ spec: OptionSpec, convert: @escaping @Sendable (String) throws(InvalidValue) -> Value) {
    self.spec = spec
    self.convert = convert
  }

  /// The same option under another help text (`extract`'s "Live form: …").
  func withHelp(_ help: String) -> Self {
    var copy = self
    copy.spec.help = help
    return copy
  }

  /// `text` as a `Value`, or the usage error that names the option.
  func value(of text: String) throws(UsageError) -> Value {
    do {
      return try convert(text)
    } catch {
      let reason = error.reason.map { ": \($0)" } ?? ""
      throw UsageError("The value '\(text)' is invalid for '\(spec.synopsis)'\(reason)", hint: error.hint)
    }
  }
}

/// A flag (`--quiet`), declared once.
struct Flag: Sendable {
  private(set) var spec: OptionSpec

  init(_ long: String, short: Character? = nil, help: String) {
    spec = .flag(long, short: short, help: help)
  }

  /// `-q, --quiet`, as `crawl`, `merge` and `gc` declare it (`thumb` says more).
  static let quiet = Flag("quiet", short: "q", help: "Print nothing but fatal errors.")

  /// The same flag under another help text.
  func withHelp(_ help: String) -> Self {
    var copy = self
    copy.spec.help = help
    return copy
  }
}

extension Option where Value == String {
  /// A value taken as it is (a path, a URL checked later); only the empty string is refused, by the parser.
  static func text(
    _ long: String, short: Character? = nil, value: String, help: String, default defaultValue: String? = nil,
    isRequired: Bool = false, isRepeating: Bool = false
  ) -> Self {
    Option(
      .option(
        long, short: short, value: value, help: help, default: defaultValue, isRequired: isRequired,
        isRepeating: isRepeating)
    ) { text throws(InvalidValue) in text }
  }
}

extension Option where Value == Int {
  /// A whole number in `range`.
  static func integer(
    _ long: String, value: String = "n", help: String, default defaultValue: Int? = nil,
    range: ClosedRange<Int>
  ) -> Self {
    Option(.option(long, value: value, help: help, default: defaultValue.map(String.init))) {
      text throws(InvalidValue) in
      guard let number = Int(text), range.contains(number) else {
        throw InvalidValue(hint: "Give a whole number from \(range.lowerBound) to \(range.upperBound).")
      }
      return number
    }
  }
}

extension Option where Value == Double {
  /// A duration in seconds, written as `DurationParser` reads it (`90`, `30s`, `2m`, `12h`, `7d`, `2w`).
  ///
  /// - Parameters:
  ///   - allowsZero: whether `0` is meaningful (`--grace 0`: no grace) or not (`--timeout 0`).
  ///   - maximum: the largest accepted value in seconds, if any.
  static func duration(
    _ long: String, help: String, default defaultValue: String? = nil, allowsZero: Bool,
    maximum: Double? = nil
  ) -> Self {
    var accepted = allowsZero ? "0 or more" : "above 0"
    if let maximum { accepted += " and at most \(DurationParser.words(maximum))" }
    let hint =
      "A duration is seconds or a number with s, m, h, d or w (30s, 2m, 1h, 7d); this one must be \(accepted)."
    return Option(.option(long, value: "duration", help: help, default: defaultValue)) {
      text throws(InvalidValue) in
      guard let seconds = DurationParser.seconds(text), allowsZero || seconds > 0,
        maximum.map({ seconds <= $0 }) ?? true
      else { throw InvalidValue(hint: hint) }
      return seconds
    }
  }
}

extension Option where Value == Threshold {
  /// A count or a share of a total (`10`, `5%`).
  static func threshold(_ long: String, help: String, default defaultValue: String? = nil) -> Self {
    Option(.option(long, value: "n|p%", help: help, default: defaultValue)) { text throws(InvalidValue) in
      guard let threshold = Threshold(text) else {
        throw InvalidValue(hint: "Give a count (10) or a percentage (5%).")
      }
      return threshold
    }
  }
}

extension Option where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
  /// One of `Value`'s cases by its raw value; the completion scripts offer them.
  static func choice(_ long: String, value: String, help: String, default defaultValue: Value? = nil) -> Self
  {
    let names = Value.allCases.map(\.rawValue)
    let list =
      names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1] : names[0]
    return Option(
      .option(long, value: value, help: help, default: defaultValue?.rawValue, choices: names)
    ) { text throws(InvalidValue) in
      guard let choice = Value(rawValue: text) else { throw InvalidValue(hint: "Give \(list).") }
      return choice
    }
  }
}

extension ParsedArguments {
  /// The option's value (its default when it was not given), or `nil` when it has neither.
  func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
    guard let text = text(option.spec) else { return nil }
    return try option.value(of: text)
  }

  /// The value of an option that always has one: a default, or `isRequired`.
  func required<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
    guard let value = try value(option) else {
      throw UsageError("Missing expected argument '\(option.spec.synopsis)'")
    }
    return value
  }

  /// Every value of a repeating option, in the order given.
  func values<Value>(_ option: Option<Value>) throws(UsageError) -> [Value] {
    var result: [Value] = []
    for text in texts(option.spec) { result.append(try option.value(of: text)) }
    return result
  }

  /// Whether the option has a value: given, or defaulted.
  func has<Value>(_ option: Option<Value>) -> Bool { has(option.spec) }

  func isSet(_ flag: Flag) -> Bool { has(flag.spec) }
}
