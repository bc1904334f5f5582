import Foundation

/// The keyed container of ``PayloadDecoding``. Its entries are indexed once; keys are then
/// looked up from where the last one was found (synthesized code asks for them in the order they
/// were written, so the first comparison usually matches).
final class PayloadKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private struct Entry {
        let key: Range<Int>
        let value: Int
    }

    private let decoder: PayloadDecoding
    private var entries: ContiguousArray<Entry> = []
    private var cursor = 0
    var codingPath: [any CodingKey] { decoder.codingPath }

    init(decoder: PayloadDecoding) throws {
        self.decoder = decoder
        let reader = decoder.reader
        guard try reader.tag(at: decoder.offset) == .keyed else {
            throw decoder.mismatch([String: Any].self, at: decoder.offset, path: decoder.codingPath)
        }
        let (count, afterCount) = try reader.varint(at: decoder.offset + 1)
        let (length, start) = try reader.length(at: afterCount)
        guard count <= UInt64(length) else { throw PayloadFormat.damaged("\(count) entries in \(length) bytes") }
        entries.reserveCapacity(Int(count))
        var offset = start
        for _ in 0..<count {
            let (key, value) = try reader.textRange(at: offset)
            offset = try reader.skip(at: value)
            entries.append(Entry(key: key, value: value))
        }
        guard offset == start + length else { throw PayloadFormat.damaged("entries do not fill their container") }
    }

    /// The offset of the value stored under `key`, or `nil`.
    private func find(_ key: Key) -> Int? {
        let name = key.stringValue
        if let found = name.utf8.withContiguousStorageIfAvailable({ find(UnsafeRawBufferPointer($0)) }) {
            return found
        }
        return Array(name.utf8).withUnsafeBytes { find($0) }
    }

    private func find(_ name: UnsafeRawBufferPointer) -> Int? {
        let count = entries.count
        guard count > 0 else { return nil }
        for step in 0..<count {
            let index = (cursor + step) % count
            let entry = entries[index]
            guard entry.key.count == name.count else { continue }
            if name.count == 0 || memcmp(decoder.reader.bytes.baseAddress! + entry.key.lowerBound, name.baseAddress!, name.count) == 0 {
                cursor = index + 1 == count ? 0 : index + 1
                return entry.value
            }
        }
        return nil
    }

    private func value(_ key: Key) throws -> Int {
        guard let offset = find(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for key \(key.stringValue)"))
        }
        return offset
    }

    /// The offset of the value under `key`, or `nil` when the key is missing or holds null.
    private func presentValue(_ key: Key) throws -> Int? {
        guard let offset = find(key), try !decoder.decodeNil(at: offset) else { return nil }
        return offset
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    var allKeys: [Key] {
        entries.compactMap { Key(stringValue: decoder.reader.string($0.key)) }
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder.decodeNil(at: value(key)) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.decodeBool(at: value(key), path: path(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.decodeString(at: value(key), path: path(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.decodeDouble(at: value(key), path: path(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try decoder.decodeDouble(at: value(key), path: path(key))) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        try decoder.decodeInteger(type, at: value(key), path: path(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decodeValue(type, at: value(key), key: key)
    }

    // One lookup for the optional forms (the defaults look the key up three times).
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try presentValue(key).map { try decoder.decodeBool(at: $0, path: path(key)) }
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try presentValue(key).map { try decoder.decodeString(at: $0, path: path(key)) }
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try presentValue(key).map { try decoder.decodeDouble(at: $0, path: path(key)) }
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try presentValue(key).map { try decoder.decodeInteger(type, at: $0, path: path(key)) }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try presentValue(key).map { try decoder.decodeValue(type, at: $0, key: key) }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try PayloadDecoding(reader: decoder.reader, offset: value(key), codingPath: path(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try PayloadDecoding(reader: decoder.reader, offset: value(key), codingPath: path(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = PayloadSuperKey()
        let offset = entries.first { decoder.reader.string($0.key) == key.stringValue }?.value ?? -1
        return PayloadDecoding(reader: decoder.reader, offset: offset, codingPath: codingPath + [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        PayloadDecoding(reader: decoder.reader, offset: find(key) ?? -1, codingPath: path(key))
    }
}

/// The unkeyed container of ``PayloadDecoding``: the values in order.
struct PayloadUnkeyedDecoder: UnkeyedDecodingContainer {
    private let decoder: PayloadDecoding
    private var position: Int
    let count: Int?
    private(set) var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }
    var isAtEnd: Bool { currentIndex >= count! }

    init(decoder: PayloadDecoding) throws {
        self.decoder = decoder
        let reader = decoder.reader
        guard try reader.tag(at: decoder.offset) == .unkeyed else {
            throw decoder.mismatch([Any].self, at: decoder.offset, path: decoder.codingPath)
        }
        let (count, afterCount) = try reader.varint(at: decoder.offset + 1)
        let (length, start) = try reader.length(at: afterCount)
        guard count <= UInt64(length) else { throw PayloadFormat.damaged("\(count) elements in \(length) bytes") }
        self.count = Int(count)
        position = start
    }

    private var path: [any CodingKey] { path(currentIndex) }

    private func path(_ index: Int) -> [any CodingKey] { codingPath + [PayloadIndexKey(index)] }

    /// The offset of the next value; moves past it.
    private mutating func next(_ type: Any.Type) throws -> Int {
        try take(type).offset
    }

    /// The offset and index of the next value; moves past it.
    private mutating func take(_ type: Any.Type) throws -> (offset: Int, index: Int) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "the array has no more elements"))
        }
        let offset = position
        position = try decoder.reader.skip(at: offset)
        currentIndex += 1
        return (offset, currentIndex - 1)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, try decoder.decodeNil(at: position) else { return false }
        _ = try next(Never.self)
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let (offset, index) = try take(type)
        return try decoder.decodeBool(at: offset, path: path(index))
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let (offset, index) = try take(type)
        return try decoder.decodeString(at: offset, path: path(index))
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let (offset, index) = try take(type)
        return try decoder.decodeDouble(at: offset, path: path(index))
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        let (offset, index) = try take(type)
        return Float(try decoder.decodeDouble(at: offset, path: path(index)))
    }

    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let (offset, index) = try take(type)
        return try decoder.decodeInteger(type, at: offset, path: path(index))
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let key = PayloadIndexKey(currentIndex)
        return try decoder.decodeValue(type, at: next(type), key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let path = path
        return try PayloadDecoding(reader: decoder.reader, offset: next(type), codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let path = path
        return try PayloadDecoding(reader: decoder.reader, offset: next([Any].self), codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let path = path
        return PayloadDecoding(reader: decoder.reader, offset: try next(Any.self), codingPath: path)
    }
}

/// The single-value container of ``PayloadDecoding``.
struct PayloadSingleValueDecoder: SingleValueDecodingContainer {
    let decoder: PayloadDecoding
    var codingPath: [any CodingKey] { decoder.codingPath }
    private var offset: Int { decoder.offset }

    func decodeNil() -> Bool { (try? decoder.decodeNil(at: offset)) ?? false }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool(at: offset, path: codingPath) }
    func decode(_ type: String.Type) throws -> String { try decoder.decodeString(at: offset, path: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeDouble(at: offset, path: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try decoder.decodeDouble(at: offset, path: codingPath)) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(type, at: offset, path: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(type, at: offset, path: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(type, at: offset, path: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(type, at: offset, path: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(type, at: offset, path: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(type, at: offset, path: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(type, at: offset, path: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(type, at: offset, path: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(type, at: offset, path: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(type, at: offset, path: codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type, key: nil) }
}
