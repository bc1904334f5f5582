import Foundation

/// The keyed container of ``PayloadEncoding``: each entry is the key's text, then the value.
struct PayloadKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: PayloadNode
    let encoder: PayloadEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }

    @inline(__always)
    private func entry(_ key: Key) {
        node.bytes.appendText(key.stringValue)
        node.count += 1
    }

    mutating func encodeNil(forKey key: Key) throws {
        entry(key)
        node.bytes.appendTag(.null)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        entry(key)
        node.bytes.appendTag(value ? .true : .false)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        entry(key)
        node.bytes.appendTag(.string)
        node.bytes.appendText(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws { entry(key); node.bytes.appendDouble(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { entry(key); node.bytes.appendDouble(Double(value)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { entry(key); node.bytes.appendInteger(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { entry(key); node.bytes.appendInteger(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { entry(key); node.bytes.appendInteger(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { entry(key); node.bytes.appendInteger(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { entry(key); node.bytes.appendInteger(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { entry(key); node.bytes.appendInteger(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { entry(key); node.bytes.appendInteger(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { entry(key); node.bytes.appendInteger(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { entry(key); node.bytes.appendInteger(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { entry(key); node.bytes.appendInteger(value) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        entry(key)
        try node.encodeValue(value, encoder: encoder, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        entry(key)
        let nested = PayloadEncoding(node: node.child(kind: .keyed), codingPath: codingPath + [key], failure: encoder.failure)
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        entry(key)
        let nested = PayloadEncoding(node: node.child(kind: .unkeyed), codingPath: codingPath + [key], failure: encoder.failure)
        return nested.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(named: PayloadSuperKey())
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key)
    }

    private func superEncoder(named key: some CodingKey) -> any Encoder {
        node.bytes.appendText(key.stringValue)
        node.count += 1
        return PayloadEncoding(node: node.child(), codingPath: codingPath + [key], failure: encoder.failure)
    }
}

/// The key under which `superEncoder()` and `superDecoder()` put the superclass's values.
struct PayloadSuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

/// An array position as a coding key (for coding paths).
struct PayloadIndexKey: CodingKey {
    let index: Int
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.index = intValue }
}

/// The unkeyed container of ``PayloadEncoding``: the values one after the other.
struct PayloadUnkeyedEncoder: UnkeyedEncodingContainer {
    let node: PayloadNode
    let encoder: PayloadEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { node.count }

    mutating func encodeNil() throws { node.count += 1; node.bytes.appendTag(.null) }
    mutating func encode(_ value: Bool) throws { node.count += 1; node.bytes.appendTag(value ? .true : .false) }
    mutating func encode(_ value: String) throws {
        node.count += 1
        node.bytes.appendTag(.string)
        node.bytes.appendText(value)
    }
    mutating func encode(_ value: Double) throws { node.count += 1; node.bytes.appendDouble(value) }
    mutating func encode(_ value: Float) throws { node.count += 1; node.bytes.appendDouble(Double(value)) }
    mutating func encode(_ value: Int) throws { node.count += 1; node.bytes.appendInteger(value) }
    mutating func encode(_ value: Int8) throws { node.count += 1; node.bytes.appendInteger(value) }
    mutating func encode(_ value: Int16) throws { node.count += 1; node.bytes.appendInteger(value) }
    mutating func encode(_ value: Int32) throws { node.count += 1; node.bytes.appendInteger(value) }
    mutating func encode(_ value: Int64) throws { node.count += 1; node.bytes.appendInteger(value) }
    mutating func encode(_ value: UInt) throws { node.count += 1; node.bytes.appendInteger(value) }
    mutating func encode(_ value: UInt8) throws { node.count += 1; node.bytes.appendInteger(value) }
    mutating func encode(_ value: UInt16) throws { node.count += 1; node.bytes.appendInteger(value) }
    mutating func encode(_ value: UInt32) throws { node.count += 1; node.bytes.appendInteger(value) }
    mutating func encode(_ value: UInt64) throws { node.count += 1; node.bytes.appendInteger(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = PayloadIndexKey(node.count)
        node.count += 1
        try node.encodeValue(value, encoder: encoder, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = PayloadEncoding(node: node.child(kind: .keyed), codingPath: nextPath(), failure: encoder.failure)
        node.count += 1
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = PayloadEncoding(node: node.child(kind: .unkeyed), codingPath: nextPath(), failure: encoder.failure)
        node.count += 1
        return nested.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let nested = PayloadEncoding(node: node.child(), codingPath: nextPath(), failure: encoder.failure)
        node.count += 1
        return nested
    }

    private func nextPath() -> [any CodingKey] {
        codingPath + [PayloadIndexKey(node.count)]
    }
}

/// The single-value container of ``PayloadEncoding``: the node holds exactly one value.
struct PayloadSingleValueEncoder: SingleValueEncodingContainer {
    let encoder: PayloadEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }

    /// The node, claimed for one value (a second value is an error).
    private func slot() -> PayloadNode {
        let node = encoder.claim(.single)
        node.count = 1
        return node
    }

    mutating func encodeNil() throws { slot().bytes.appendTag(.null) }
    mutating func encode(_ value: Bool) throws { slot().bytes.appendTag(value ? .true : .false) }
    mutating func encode(_ value: String) throws {
        let node = slot()
        node.bytes.appendTag(.string)
        node.bytes.appendText(value)
    }
    mutating func encode(_ value: Double) throws { slot().bytes.appendDouble(value) }
    mutating func encode(_ value: Float) throws { slot().bytes.appendDouble(Double(value)) }
    mutating func encode(_ value: Int) throws { slot().bytes.appendInteger(value) }
    mutating func encode(_ value: Int8) throws { slot().bytes.appendInteger(value) }
    mutating func encode(_ value: Int16) throws { slot().bytes.appendInteger(value) }
    mutating func encode(_ value: Int32) throws { slot().bytes.appendInteger(value) }
    mutating func encode(_ value: Int64) throws { slot().bytes.appendInteger(value) }
    mutating func encode(_ value: UInt) throws { slot().bytes.appendInteger(value) }
    mutating func encode(_ value: UInt8) throws { slot().bytes.appendInteger(value) }
    mutating func encode(_ value: UInt16) throws { slot().bytes.appendInteger(value) }
    mutating func encode(_ value: UInt32) throws { slot().bytes.appendInteger(value) }
    mutating func encode(_ value: UInt64) throws { slot().bytes.appendInteger(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try slot().encodeValue(value, encoder: encoder, key: nil)
    }
}
