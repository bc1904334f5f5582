import Foundation

/// Reads an entity's columns from a keyed `PayloadFormat` payload (a row's `payload` column, or
/// a whole payload `Codable` wrote). Columns are asked for in the order they were written, so each is
/// found where the last one ended; a column elsewhere (a row written by an older model) is found
/// by a scan of the entries, and one that is not there reads as `nil`.
struct PayloadColumnReader: _ColumnReader {
    let reader: PayloadReader
    /// Where the entries start and end, and the next entry expected.
    private let start: Int, end: Int
    private var cursor: Int

    /// A reader of `bytes`, a whole payload whose value is a keyed container.
    init(_ bytes: UnsafeRawBufferPointer) throws {
        reader = PayloadReader(bytes: bytes)
        guard bytes.count > PayloadFormat.magic.count, bytes[0] == PayloadFormat.magic[0] else {
            throw PayloadFormat.damaged("no payload header")
        }
        guard bytes[1] == PayloadFormat.magic[1] else {
            throw PayloadFormat.damaged("payload format \(bytes[1]) is newer than this library")
        }
        let offset = PayloadFormat.magic.count
        guard try reader.tag(at: offset) == .keyed else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: [], debugDescription: "the stored payload is not an object"))
        }
        let (_, afterCount) = try reader.varint(at: offset + 1)
        let (length, first) = try reader.length(at: afterCount)
        guard first + length == bytes.count else { throw PayloadFormat.damaged("bytes after the value") }
        start = first
        end = first + length
        cursor = first
    }

    /// The offset of the value of `column`, or `nil` when the payload has no such entry.
    private mutating func find(_ column: StaticString) throws -> Int? {
        if cursor < end, let value = try match(column, at: cursor) {
            cursor = try reader.skip(at: value)
            return value
        }
        var offset = start
        while offset < end {
            if let value = try match(column, at: offset) {
                cursor = try reader.skip(at: value)
                return value
            }
            offset = try reader.skip(at: try reader.textRange(at: offset).next)
        }
        return nil
    }

    /// The offset of the entry's value at `offset` if its key is `column`.
    private func match(_ column: StaticString, at offset: Int) throws -> Int? {
        let (key, value) = try reader.textRange(at: offset)
        let equal = column.withUTF8Buffer { name in
            name.count == key.count && (name.isEmpty || memcmp(name.baseAddress!, reader.bytes.baseAddress! + key.lowerBound, name.count) == 0)
        }
        return equal ? value : nil
    }

    mutating func value(_ column: StaticString, _ ordinal: Int) throws -> StoredValue? {
        guard let offset = try find(column) else { return nil }
        switch try reader.tag(at: offset) {
        case .keyed, .unkeyed:
            throw DecodingError.typeMismatch(
                StoredValue.self, .init(codingPath: [ColumnCodingKey(column)], debugDescription: "expected a scalar, found a nested value")
            )
        default: return try reader.scalar(at: offset)
        }
    }

    mutating func nested<Value: Decodable>(_ type: Value.Type, _ column: StaticString, _ ordinal: Int) throws -> Value? {
        guard let offset = try find(column), try reader.tag(at: offset) != .null else { return nil }
        return try PayloadDecoding(reader: reader, offset: offset, codingPath: [ColumnCodingKey(column)]).decodeValue(type, key: nil)
    }

    func whole<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try PayloadDecoding(reader: reader, offset: PayloadFormat.magic.count, codingPath: []).decodeValue(type, key: nil)
    }
}
