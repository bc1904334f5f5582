import Foundation

/// Decodes values in ``PayloadFormat``. One decoder may be reused for many payloads, on one
/// thread at a time.
@usableFromInline
final class PayloadDecoder {
    @usableFromInline init() {}

    /// The value of type `Value` in `payload`.
    ///
    /// - Throws: `DecodingError` when the payload is damaged or does not hold a `Value`.
    @usableFromInline
    func decode<Value: Decodable>(_ type: Value.Type, from payload: Data) throws -> Value {
        try payload.withUnsafeBytes { bytes in
            let reader = PayloadReader(bytes: bytes)
            guard bytes.count > PayloadFormat.magic.count, bytes[0] == PayloadFormat.magic[0] else {
                throw PayloadFormat.damaged("no payload header")
            }
            guard bytes[1] == PayloadFormat.magic[1] else {
                throw PayloadFormat.damaged("payload format \(bytes[1]) is newer than this library")
            }
            let decoding = PayloadDecoding(reader: reader, offset: PayloadFormat.magic.count, codingPath: [])
            let value = try decoding.decodeValue(Value.self, key: nil)
            guard try reader.skip(at: PayloadFormat.magic.count) == bytes.count else {
                throw PayloadFormat.damaged("bytes after the value")
            }
            return value
        }
    }
}

/// The `Decoder` handed to `init(from:)`: one value at `offset`. It lives only while the payload's
/// bytes are borrowed (`init(from:)` must not keep its decoder, as for every decoder).
final class PayloadDecoding: Decoder {
    let reader: PayloadReader
    let offset: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(reader: PayloadReader, offset: Int, codingPath: [any CodingKey]) {
        self.reader = reader
        self.offset = offset
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try PayloadKeyedDecoder<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try PayloadUnkeyedDecoder(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        PayloadSingleValueDecoder(decoder: self)
    }

    // MARK: Values

    func mismatch(_ type: Any.Type, at offset: Int, path: [any CodingKey]) -> DecodingError {
        let found = (try? reader.tag(at: offset)).map { "\($0)" } ?? "damaged bytes"
        return DecodingError.typeMismatch(
            type, .init(codingPath: path, debugDescription: "expected \(type), found \(found)")
        )
    }

    func decodeNil(at offset: Int) throws -> Bool {
        try reader.tag(at: offset) == .null
    }

    func decodeBool(at offset: Int, path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        switch try reader.tag(at: offset) {
        case .true: return true
        case .false: return false
        default: throw mismatch(Bool.self, at: offset, path: path())
        }
    }

    func decodeString(at offset: Int, path: @autoclosure () -> [any CodingKey]) throws -> String {
        guard try reader.tag(at: offset) == .string else { throw mismatch(String.self, at: offset, path: path()) }
        return reader.string(try reader.textRange(at: offset + 1).range)
    }

    func decodeDouble(at offset: Int, path: @autoclosure () -> [any CodingKey]) throws -> Double {
        switch try reader.tag(at: offset) {
        case .double: return try reader.double(at: offset + 1)
        case .int: return Double(try signed(at: offset))
        case .uint: return Double(try reader.varint(at: offset + 1).value)
        default: throw mismatch(Double.self, at: offset, path: path())
        }
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, at offset: Int, path: @autoclosure () -> [any CodingKey]) throws -> T {
        let value: T?
        switch try reader.tag(at: offset) {
        case .int: value = T(exactly: try signed(at: offset))
        case .uint: value = T(exactly: try reader.varint(at: offset + 1).value)
        case .double: value = T(exactly: try reader.double(at: offset + 1))
        default: throw mismatch(type, at: offset, path: path())
        }
        guard let value else {
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "the stored number does not fit in \(type)"))
        }
        return value
    }

    private func signed(at offset: Int) throws -> Int64 {
        let raw = try reader.varint(at: offset + 1).value
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// The value at `self.offset`, of any type.
    func decodeValue<T: Decodable>(_ type: T.Type, key: (any CodingKey)?) throws -> T {
        try decodeValue(type, at: offset, key: key)
    }

    /// The value at `offset` (an entry or element of this decoder's container), of any type.
    func decodeValue<T: Decodable>(_ type: T.Type, at offset: Int, key: (any CodingKey)?) throws -> T {
        func path() -> [any CodingKey] { key.map { codingPath + [$0] } ?? codingPath }
        if T.self == Data.self {
            guard try reader.tag(at: offset) == .data else { throw mismatch(Data.self, at: offset, path: path()) }
            let range = try reader.textRange(at: offset + 1).range
            return unsafeBitCast(Data(reader.bytes[range]), to: T.self)
        }
        if T.self == URL.self {
            let text = try decodeString(at: offset, path: path())
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "the stored text is not a valid URL (\(text.utf8.count) bytes)"))
            }
            return unsafeBitCast(url, to: T.self)
        }
        if T.self == Date.self {
            return unsafeBitCast(Date(timeIntervalSinceReferenceDate: try decodeDouble(at: offset, path: path())), to: T.self)
        }
        if offset == self.offset && key == nil { return try T(from: self) }
        return try T(from: PayloadDecoding(reader: reader, offset: offset, codingPath: path()))
    }
}
