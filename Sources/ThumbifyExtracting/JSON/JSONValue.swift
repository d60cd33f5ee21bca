/// A JSON value as JSON-LD blocks use it.
package indirect enum JSONValue: Equatable, Sendable {
  case object([String: JSONValue])
  case array([JSONValue])
  case string(String)
  case number(Double)
  case bool(Bool)
  case null

  package subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  package var stringValue: String? {
    switch self {
    case .string(let text): return text
    case .number(let value):
      return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    default: return nil
    }
  }

  /// The value itself, or each element when it is an array.
  package var elements: [JSONValue] {
    if case .array(let items) = self { return items }
    return [self]
  }
}
