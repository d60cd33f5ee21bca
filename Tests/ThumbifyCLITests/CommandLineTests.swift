import Testing
import ThumbifyStoreTestSupport

@testable import ThumbifyCLI

/// Runs one command line in-process and returns what it printed.
/// Its environment's `XDG_STATE_HOME` is a temporary directory (`TestState`) unless `environment` is given.
func runCLI(
  _ arguments: [String], input: [UInt8] = [], environment: [String: String] = TestState.environment
) async -> (status: Int32, out: String, err: String) {
  let captured = CapturedConsole(input: input, environment: environment)
  let status = await ThumbifyCommandLine.run(arguments, console: captured.console)
  return (status, captured.standardOutput, captured.standardError)
}

@Suite("Command line conventions")
struct CommandLineTests {
  @Test func rootHelpListsSubcommandsOnStdout() async {
    let result = await runCLI(["--help"])
    #expect(result.status == 0)
    #expect(result.err.isEmpty)
    #expect(
      result.out.hasPrefix(
        "OVERVIEW: Link previews and thumbnails for whole URL corpora.\n\n"
          + "Without arguments, prints this help. docs/cli.md lists every command's options.\n\n"
          + "USAGE: thumbify <subcommand>\n"))
    #expect(
      result.out.contains("\nSUBCOMMANDS:\n  thumb                   Make thumbnails of local image files.\n")
    )
    #expect(
      result.out.hasSuffix(
        "  help                    Show subcommand help information.\n\n  See 'thumbify help <subcommand>' for detailed help.\n"
      ))
  }

  @Test(arguments: [["-h"], ["--help"], ["help"], []])
  func everyHelpSpellingPrintsTheSameRootHelp(_ arguments: [String]) async {
    let expected = await runCLI(["--help"]).out
    let result = await runCLI(arguments)
    #expect(result.status == 0)
    #expect(result.out == expected)
  }

  @Test func helpSubcommandEqualsSubcommandHelpFlag() async {
    let viaHelp = await runCLI(["help", "thumb"])
    let viaFlag = await runCLI(["thumb", "--help"])
    let viaShort = await runCLI(["thumb", "-h"])
    #expect(viaHelp.status == 0)
    #expect(viaHelp.out == viaFlag.out)
    #expect(viaHelp.out == viaShort.out)
    #expect(
      viaHelp.out.contains(
        "USAGE: thumbify thumb <images> ... --out <dir> [--state <dir>] [--variant <spec> ...] [--size <WxH>] [--fit <fit>] [--format <format>] [--quality <1-100>] [--quiet] [--log-format <format>]\n"
      ))
  }

  @Test func versionPrintsTheVersion() async {
    let result = await runCLI(["--version"])
    #expect(result.status == 0)
    #expect(result.out == "0.1.0\n")
  }

  @Test func unknownOptionIsTheThreeLineErrorBlock() async {
    let result = await runCLI(["thumb", "a.jpg", "--out", "x", "--bogus"])
    #expect(result.status == 64)
    #expect(result.out.isEmpty)
    #expect(
      result.err == """
        Error: Unknown option '--bogus'
        Usage: thumbify thumb <images> ... --out <dir> [--state <dir>] [--variant <spec> ...] [--size <WxH>] [--fit <fit>] [--format <format>] [--quality <1-100>] [--quiet] [--log-format <format>]
          See 'thumbify thumb --help' for more information.

        """)
  }

  @Test func missingRequiredOptionIsNamed() async {
    let result = await runCLI(["thumb", "a.jpg"])
    #expect(result.status == 64)
    #expect(result.err.hasPrefix("Error: Missing expected argument '--out <dir>'\n"))
  }

  @Test func missingPositionalIsNamed() async {
    let result = await runCLI(["thumb", "--out", "x"])
    #expect(result.status == 64)
    #expect(result.err.hasPrefix("Error: Missing expected argument '<images> ...'\n"))
  }

  @Test func missingOptionValueIsNamed() async {
    let result = await runCLI(["thumb", "a.jpg", "--out"])
    #expect(result.status == 64)
    #expect(result.err.hasPrefix("Error: Missing value for '--out <dir>'\n"))
  }

  @Test func unknownSubcommandIsAnUnexpectedArgument() async {
    let result = await runCLI(["frobnicate"])
    #expect(result.status == 64)
    #expect(
      result.err == """
        Error: Unexpected argument 'frobnicate'
        Usage: thumbify <subcommand>
          See 'thumbify --help' for more information.

        """)
  }

  /// Bare `thumbify` is how people ask what it does (issue 21): the root help on stdout, exit 0.
  @Test func noArgumentsPrintsTheRootHelp() async {
    let expected = await runCLI(["--help"]).out
    let result = await runCLI([])
    #expect(result.status == 0)
    #expect(result.err.isEmpty)
    #expect(result.out == expected)
  }
}

@Suite("Argument parsing")
struct ArgumentParserTests {
  let out = Option.text("out", short: "o", value: "dir", help: "", isRequired: true)
  let size = Option.text("size", value: "WxH", help: "", default: "600x315")
  let variant = Option.text("variant", value: "spec", help: "", isRepeating: true)
  let quiet = Flag("quiet", short: "q", help: "")
  let count = Option.integer("count", help: "", range: 1...9)
  var spec: CommandSpec {
    CommandSpec(
      commandName: "t", abstract: "", arguments: [ArgumentSpec("files", help: "", isRepeating: true)],
      options: [out.spec, size.spec, variant.spec, quiet.spec, count.spec])
  }

  @Test func equalsAndSpaceFormsAreTheSame() throws {
    let a = try ArgumentParser.parse(["--out=d", "f"], spec: spec)
    let b = try ArgumentParser.parse(["--out", "d", "f"], spec: spec)
    let c = try ArgumentParser.parse(["-o", "d", "f"], spec: spec)
    #expect(try a.value(out) == "d")
    #expect(try b.value(out) == "d")
    #expect(try c.value(out) == "d")
  }

  @Test func doubleDashEndsOptions() throws {
    let parsed = try ArgumentParser.parse(["--out", "d", "--", "--quiet", "-x"], spec: spec)
    #expect(parsed.positionals == ["--quiet", "-x"])
    #expect(!parsed.isSet(quiet))
  }

  @Test func singleDashIsAPositionalMeaningStdin() throws {
    let parsed = try ArgumentParser.parse(["-", "--out", "d"], spec: spec)
    #expect(parsed.positionals == ["-"])
  }

  @Test func defaultsApplyAndRepeatsAccumulate() throws {
    let parsed = try ArgumentParser.parse(
      ["f", "--out", "d", "--variant", "a=1x1", "--variant=b=2x2", "-q"], spec: spec)
    #expect(try parsed.value(size) == "600x315")
    #expect(try parsed.values(variant) == ["a=1x1", "b=2x2"])
    #expect(parsed.isSet(quiet))
    #expect(try parsed.value(count) == nil)
  }

  @Test func aTypedOptionRefusesItsValueInOneShape() throws {
    let parsed = try ArgumentParser.parse(["f", "--out", "d", "--count", "10"], spec: spec)
    #expect(
      throws: UsageError(
        "The value '10' is invalid for '--count <n>'", hint: "Give a whole number from 1 to 9.")
    ) {
      try parsed.value(count)
    }
    #expect(try ArgumentParser.parse(["f", "--out", "d", "--count", "9"], spec: spec).value(count) == 9)
  }

  @Test func flagsRejectValues() {
    #expect(throws: UsageError("The option '--quiet' does not take a value")) {
      try ArgumentParser.parse(["f", "--out", "d", "--quiet=yes"], spec: spec)
    }
  }

  @Test func helpWinsOverMissingArguments() throws {
    let parsed = try ArgumentParser.parse(["--help"], spec: spec)
    #expect(parsed.isHelpRequested)
  }
}

@Suite("Help layout")
struct HelpFormatterTests {
  @Test func labelsAtColumnTwoHelpAtColumnTwentySix() {
    let row = HelpFormatter.row(label: "--out <dir>", help: "The output directory.")
    #expect(row == "  --out <dir>             The output directory.\n")
  }

  @Test func longLabelsPutHelpOnTheNextLine() {
    let row = HelpFormatter.row(label: "--allow-private-network-x", help: "Lift it.")
    #expect(row == "  --allow-private-network-x\n                          Lift it.\n")
  }

  @Test func helpWrapsAtEightyColumns() {
    let row = HelpFormatter.row(label: "--x", help: String(repeating: "word ", count: 20))
    for line in row.split(separator: "\n") { #expect(line.count <= 80) }
  }
}
