/// A path in the file system, as a value: swift-system's `FilePath` for what thumbify needs — joining,
/// the last component, the parent — without Foundation's `NSString` bridging.
///
/// The string is kept as given (`FilePath("out/").string == "out/"`): nothing is resolved, and `..`
/// is a component like any other (a path that must not leave a directory is checked where it is
/// read, as `thumbify serve` does). Components are separated by `/`; runs of `/` count as one.
///
/// ```swift
/// let blob = FilePath("out").appending("blobs/3f/a2/3fa2….webp")  // "out/blobs/3f/a2/3fa2….webp"
/// blob.lastComponent                                                // "3fa2….webp"
/// blob.removingLastComponent()                                      // "out/blobs/3f/a2"
/// ```
package struct FilePath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
  /// The path, as given or as joined.
  package var string: String

  /// The path `string`, kept as it is.
  package init(_ string: String) {
    self.string = string
  }

  /// The path written as a string literal.
  package init(stringLiteral string: String) {
    self.string = string
  }

  /// ``string``.
  package var description: String { string }

  /// Whether the path is the empty string (no component, not even the root).
  package var isEmpty: Bool { string.isEmpty }

  /// Whether the path starts at the root (`/`).
  package var isAbsolute: Bool { string.utf8.first == Self.separator }

  /// The path with `component` added after one `/`: `"out"` and `"out/"` give `out/<component>`, the
  /// root gives `/<component>`, the empty path gives `component` (relative to the current directory).
  /// `component` may hold several components (`"blobs/ab/cd"`); it is taken as relative.
  package func appending(_ component: String) -> FilePath {
    if string.isEmpty { return FilePath(component) }
    if string.utf8.last == Self.separator { return FilePath(string + component) }
    return FilePath(string + "/" + component)
  }

  /// The path with each of `components` appended in order.
  package func appending(_ components: String...) -> FilePath {
    components.reduce(self) { $0.appending($1) }
  }

  /// The last component, trailing slashes ignored (`"out/cards/"` → `"cards"`); `nil` for the empty
  /// path and the root.
  package var lastComponent: String? {
    let bytes = Array(string.utf8)
    guard let end = bytes.lastIndex(where: { $0 != Self.separator }) else { return nil }
    let start = bytes[..<end].lastIndex(of: Self.separator).map { $0 + 1 } ?? 0
    return String(decoding: bytes[start...end], as: UTF8.self)
  }

  /// The last component's extension, after its last `.` (`"a.tar.gz"` → `"gz"`); `nil` when it has
  /// none, or only a leading dot (`".tmp"`).
  package var `extension`: String? {
    guard let name = lastComponent, let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")),
      dot != name.utf8.startIndex
    else { return nil }
    let start = name.utf8.index(after: dot)
    return start == name.utf8.endIndex ? nil : String(name[start...])
  }

  /// The path without its last component (the directory that holds it), trailing slashes ignored:
  /// `"out/cards/a.json"` → `"out/cards"`, `"/a"` → `"/"`, `"a"` → `""`, the root and the empty path
  /// unchanged. Like `NSString.deletingLastPathComponent`, without the bridging.
  package func removingLastComponent() -> FilePath {
    let bytes = Array(string.utf8)
    guard let end = bytes.lastIndex(where: { $0 != Self.separator }) else { return self }
    guard let slash = bytes[..<end].lastIndex(of: Self.separator) else { return FilePath("") }
    // The slashes before the last component go with it, but the root stays.
    guard let parentEnd = bytes[..<slash].lastIndex(where: { $0 != Self.separator }) else {
      return FilePath("/")
    }
    return FilePath(String(decoding: bytes[...parentEnd], as: UTF8.self))
  }

  private static let separator = UInt8(ascii: "/")
}
