import Foundation

/// A JSON value as parsed for validation: booleans, integers and other numbers kept apart (Foundation's
/// `JSONSerialization` gives `NSNumber` for all three, and `true as? Int` succeeds).
package enum SchemaJSON: Decodable, Equatable, CustomStringConvertible {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  case array([SchemaJSON])
  case object([String: SchemaJSON])

  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([SchemaJSON].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: SchemaJSON].self))
    }
  }

  /// Parses one JSON document.
  package static func parse(_ text: String) throws -> SchemaJSON {
    try JSONDecoder().decode(SchemaJSON.self, from: Data(text.utf8))
  }

  package var description: String {
    switch self {
    case .null: "null"
    case .bool(let value): "\(value)"
    case .integer(let value): "\(value)"
    case .number(let value): "\(value)"
    case .string(let value): "\"\(value)\""
    case .array(let values): "[\(values.count) items]"
    case .object(let members): "{\(members.keys.sorted().joined(separator: ", "))}"
    }
  }

  package var object: [String: SchemaJSON]? {
    if case .object(let members) = self { return members }
    return nil
  }
}

/// Validates JSON documents against the JSON Schemas (draft 2020-12) in `docs/`, for the subset of
/// keywords those schemas use: `type`, `properties`, `required`, `additionalProperties`, `items`,
/// `enum`, `const`, `$ref` (within a file and to a sibling file) with `$defs`, `pattern`, `minimum`,
/// `minLength`, `maxLength`, `format` (`date-time` and `uri`, loosely).
///
/// Any other keyword in a schema is an error, not ignored: a schema cannot say more than this
/// validator checks without a test failing.
package struct JSONSchemaValidator {
  /// Keywords that only annotate.
  package static let annotations: Set<String> = [
    "$schema", "$id", "title", "description", "$comment", "examples",
  ]
  package static let keywords: Set<String> = [
    "type", "properties", "required", "additionalProperties", "items", "enum", "const", "$ref", "$defs",
    "pattern", "minimum", "minLength", "maxLength", "format",
  ]

  /// The directory the schema files are in; a `$ref` to `other.schema.json#/…` reads it from there.
  package let directory: String
  private var schemas: [String: SchemaJSON] = [:]

  package init(directory: String) throws {
    self.directory = directory
    for name in try FileManager.default.contentsOfDirectory(atPath: directory)
    where name.hasSuffix(".schema.json") {
      schemas[name] = try SchemaJSON.parse(String(contentsOfFile: directory + "/" + name, encoding: .utf8))
    }
  }

  /// A validator of schemas given as text, by file name (for testing the validator itself).
  package init(schemas: [String: String]) throws {
    directory = ""
    for (name, text) in schemas { self.schemas[name] = try SchemaJSON.parse(text) }
  }

  /// The problems of `document` against the schema `reference` names — a file (`cards.schema.json`)
  /// or a part of one (`log.schema.json#/$defs/problem`) — empty when it is valid.
  package func errors(of document: SchemaJSON, against reference: String) -> [String] {
    guard let (schema, file) = resolve(reference, from: "") else { return ["no schema \(reference)"] }
    var errors: [String] = []
    validate(document, schema, file: file, path: "$", errors: &errors)
    return errors
  }

  /// The problems of the JSON text `text` against `schemaName`, a parse failure included.
  package func errors(ofText text: String, against schemaName: String) -> [String] {
    do {
      return errors(of: try SchemaJSON.parse(text), against: schemaName)
    } catch {
      return ["not JSON: \(error)"]
    }
  }

  private func validate(
    _ value: SchemaJSON, _ schema: SchemaJSON, file: String, path: String, errors: inout [String]
  ) {
    switch schema {
    case .bool(true): return
    case .bool(false):
      errors.append("\(path): no value is allowed here")
      return
    case .object: break
    default:
      errors.append("\(path): the schema is neither an object nor a boolean")
      return
    }
    let keywords = schema.object ?? [:]
    for key in keywords.keys where !Self.keywords.contains(key) && !Self.annotations.contains(key) {
      errors.append("\(path): the validator does not know the keyword '\(key)' (in \(file))")
    }
    if case .string(let reference)? = keywords["$ref"] {
      guard let (target, targetFile) = resolve(reference, from: file) else {
        errors.append("\(path): cannot resolve $ref '\(reference)' from \(file)")
        return
      }
      validate(value, target, file: targetFile, path: path, errors: &errors)
    }
    if let type = keywords["type"] { checkType(value, type, path: path, errors: &errors) }
    if case .array(let allowed)? = keywords["enum"], !allowed.contains(value) {
      errors.append("\(path): \(value) is not one of \(allowed.map(\.description).joined(separator: ", "))")
    }
    if let constant = keywords["const"], constant != value {
      errors.append("\(path): \(value) is not \(constant)")
    }
    if case .string(let text) = value {
      checkString(text, keywords, path: path, errors: &errors)
    }
    if case .integer(let minimum)? = keywords["minimum"] {
      switch value {
      case .integer(let number) where number < minimum: errors.append("\(path): \(number) < \(minimum)")
      case .number(let number) where number < Double(minimum):
        errors.append("\(path): \(number) < \(minimum)")
      default: break
      }
    }
    if case .array(let items) = value, let itemSchema = keywords["items"] {
      for (index, item) in items.enumerated() {
        validate(item, itemSchema, file: file, path: "\(path)[\(index)]", errors: &errors)
      }
    }
    if case .object(let members) = value {
      checkObject(members, keywords, file: file, path: path, errors: &errors)
    }
  }

  private func checkType(_ value: SchemaJSON, _ type: SchemaJSON, path: String, errors: inout [String]) {
    let names: [String]
    switch type {
    case .string(let name): names = [name]
    case .array(let list): names = list.compactMap { if case .string(let name) = $0 { name } else { nil } }
    default: names = []
    }
    let matches = names.contains { name in
      switch (name, value) {
      case ("null", .null), ("boolean", .bool), ("integer", .integer), ("number", .integer),
        ("number", .number), ("string", .string), ("array", .array), ("object", .object):
        true
      case ("integer", .number(let number)): number.rounded() == number
      default: false
      }
    }
    if !matches { errors.append("\(path): \(value) is not of type \(names.joined(separator: " or "))") }
  }

  private func checkString(
    _ text: String, _ keywords: [String: SchemaJSON], path: String, errors: inout [String]
  ) {
    if case .string(let pattern)? = keywords["pattern"] {
      // ECMA-262 semantics: the pattern matches anywhere unless anchored.
      if text.range(of: pattern, options: .regularExpression) == nil {
        errors.append("\(path): \"\(text)\" does not match /\(pattern)/")
      }
    }
    if case .integer(let minimum)? = keywords["minLength"], text.count < minimum {
      errors.append("\(path): shorter than \(minimum) characters")
    }
    if case .integer(let maximum)? = keywords["maxLength"], text.count > maximum {
      errors.append("\(path): longer than \(maximum) characters")
    }
    if case .string(let format)? = keywords["format"] {
      switch format {
      case "date-time":
        // RFC 3339: full date, `T`, time, optional fraction, `Z` or an offset.
        let rfc3339 = #"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"#
        if text.range(of: rfc3339, options: .regularExpression) == nil {
          errors.append("\(path): \"\(text)\" is not a date-time")
        }
      case "uri":
        // Loosely: a scheme, a colon, no white space.
        if text.range(of: #"^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$"#, options: .regularExpression) == nil {
          errors.append("\(path): \"\(text)\" is not a URI")
        }
      default:
        errors.append("\(path): the validator does not know the format '\(format)'")
      }
    }
  }

  private func checkObject(
    _ members: [String: SchemaJSON], _ keywords: [String: SchemaJSON], file: String, path: String,
    errors: inout [String]
  ) {
    if case .array(let required)? = keywords["required"] {
      for case .string(let name) in required where members[name] == nil {
        errors.append("\(path): the required member '\(name)' is missing")
      }
    }
    let properties = keywords["properties"]?.object ?? [:]
    for (name, member) in members.sorted(by: { $0.key < $1.key }) {
      if let schema = properties[name] {
        validate(member, schema, file: file, path: "\(path).\(name)", errors: &errors)
      } else if let additional = keywords["additionalProperties"] {
        if additional == .bool(false) {
          errors.append("\(path): the member '\(name)' is not allowed")
        } else {
          validate(member, additional, file: file, path: "\(path).\(name)", errors: &errors)
        }
      }
    }
  }

  /// The schema `reference` names, and its file: `#/$defs/x` in `file`, `other.schema.json` or
  /// `other.schema.json#/$defs/x` beside it.
  private func resolve(_ reference: String, from file: String) -> (SchemaJSON, String)? {
    let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    let fileName = parts[0].isEmpty ? file : String(parts[0].split(separator: "/").last ?? "")
    guard var schema = schemas[fileName] else { return nil }
    let pointer = parts.count > 1 ? String(parts[1]) : ""
    for token in pointer.split(separator: "/") {
      let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
      guard let next = schema.object?[key] else { return nil }
      schema = next
    }
    return (schema, fileName)
  }
}
