/// thumbify's version, reported by `thumbify --version` and in the `User-Agent`.
public enum ThumbifyVersion {
  public static let current = "0.1.0"
}
