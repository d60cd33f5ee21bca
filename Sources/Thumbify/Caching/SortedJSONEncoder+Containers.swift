/// The keyed container of a `JSONSink`: each member's value is written to the sink's buffer.
struct KeyedSink<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let sink: JSONSink
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil(forKey key: Key) throws { add(key) { $0.append(contentsOf: Array("null".utf8)) } }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    add(key) { $0.append(contentsOf: Array((value ? "true" : "false").utf8)) }
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    add(key) { SortedJSONEncoder.appendString(value, to: &$0) }
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    try add(key) { try SortedJSONEncoder.appendNumber(value.description, isFinite: value.isFinite, to: &$0) }
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    try add(key) { try SortedJSONEncoder.appendNumber(value.description, isFinite: value.isFinite, to: &$0) }
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    add(key) { $0.append(contentsOf: String(value).utf8) }
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    add(key) { $0.append(contentsOf: String(value).utf8) }
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    add(key) { $0.append(contentsOf: String(value).utf8) }
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(UInt(value), forKey: key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(UInt(value), forKey: key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(UInt(value), forKey: key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    add(key) { $0.append(contentsOf: String(value).utf8) }
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    sink.members.append((key.stringValue, try sink.write(value)))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    let nested = JSONSink()
    sink.members.append((key.stringValue, .nested(nested)))
    return nested.container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = JSONSink()
    sink.members.append((key.stringValue, .nested(nested)))
    return nested.unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
  mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

  private func superEncoder(named name: String) -> any Encoder {
    let nested = JSONSink()
    sink.members.append((name, .nested(nested)))
    return nested
  }

  private func add(_ key: Key, _ body: (inout [UInt8]) throws -> Void) rethrows {
    sink.members.append((key.stringValue, try sink.write(body)))
  }
}

/// The unkeyed container of a `JSONSink` (arrays).
struct UnkeyedSink: UnkeyedEncodingContainer {
  let sink: JSONSink
  var codingPath: [any CodingKey] { [] }
  var count: Int { sink.elements.count }

  mutating func encodeNil() throws { add { $0.append(contentsOf: Array("null".utf8)) } }
  mutating func encode(_ value: Bool) throws {
    add { $0.append(contentsOf: Array((value ? "true" : "false").utf8)) }
  }
  mutating func encode(_ value: String) throws { add { SortedJSONEncoder.appendString(value, to: &$0) } }
  mutating func encode(_ value: Double) throws {
    try add { try SortedJSONEncoder.appendNumber(value.description, isFinite: value.isFinite, to: &$0) }
  }
  mutating func encode(_ value: Float) throws {
    try add { try SortedJSONEncoder.appendNumber(value.description, isFinite: value.isFinite, to: &$0) }
  }
  mutating func encode(_ value: Int) throws { add { $0.append(contentsOf: String(value).utf8) } }
  mutating func encode(_ value: Int64) throws { add { $0.append(contentsOf: String(value).utf8) } }
  mutating func encode(_ value: UInt64) throws { add { $0.append(contentsOf: String(value).utf8) } }
  mutating func encode<T: Encodable>(_ value: T) throws { sink.elements.append(try sink.write(value)) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let nested = JSONSink()
    sink.elements.append(.nested(nested))
    return nested.container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = JSONSink()
    sink.elements.append(.nested(nested))
    return nested.unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let nested = JSONSink()
    sink.elements.append(.nested(nested))
    return nested
  }

  private func add(_ body: (inout [UInt8]) throws -> Void) rethrows {
    sink.elements.append(try sink.write(body))
  }
}

/// The single-value container of a `JSONSink` (raw-value enums, wrappers).
struct SingleSink: SingleValueEncodingContainer {
  let sink: JSONSink
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil() throws { sink.buffer.append(contentsOf: Array("null".utf8)) }
  mutating func encode(_ value: Bool) throws {
    sink.buffer.append(contentsOf: Array((value ? "true" : "false").utf8))
  }
  mutating func encode(_ value: String) throws { SortedJSONEncoder.appendString(value, to: &sink.buffer) }
  mutating func encode(_ value: Double) throws {
    try SortedJSONEncoder.appendNumber(value.description, isFinite: value.isFinite, to: &sink.buffer)
  }
  mutating func encode(_ value: Float) throws {
    try SortedJSONEncoder.appendNumber(value.description, isFinite: value.isFinite, to: &sink.buffer)
  }
  mutating func encode(_ value: Int) throws { sink.buffer.append(contentsOf: String(value).utf8) }
  mutating func encode(_ value: Int64) throws { sink.buffer.append(contentsOf: String(value).utf8) }
  mutating func encode(_ value: UInt64) throws { sink.buffer.append(contentsOf: String(value).utf8) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    let nested = JSONSink()
    try value.encode(to: nested)
    nested.serialize(into: &sink.buffer)
  }
}
