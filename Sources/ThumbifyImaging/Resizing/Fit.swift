/// How an image is fitted into a target box.
public enum Fit: String, Sendable, Codable, CaseIterable {
  /// Scale to fit inside the box, keeping the aspect ratio (the whole image is visible).
  case contain
  /// Scale to fill the box, keeping the aspect ratio, and crop the overflow around the centre.
  case cover
}

/// A target box in pixels.
public struct Size: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Pixels across.
  public var width: Int
  /// Pixels down.
  public var height: Int
  /// A box of `width` × `height` pixels.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }
  public var description: String { "\(width)x\(height)" }
}
