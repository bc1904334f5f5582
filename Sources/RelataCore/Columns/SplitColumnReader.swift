import Foundation

/// Reads an entity's columns from a row of typed columns as storage handed it (an
/// ``EntityRecord`` whose `columns` are not empty): a property a column holds straight from its
/// value, any other from the row's `payload` column (`rest`, a keyed payload read by
/// ``PayloadColumnReader``). No payload is put together on the way.
///
/// Columns are asked for in the order the generated code wrote them and storage lists them in
/// the order they were added, so each is usually found where the last one ended; one elsewhere
/// is found by a scan.
///
/// The one reader `init(_relataColumns:)` is handed (a payload without columns is read as a row
/// whose every property is in the payload): a concrete type, so that the code `@EntityModel`
/// generates in the model's module is specialized for it (generic over its reader, it looked the
/// metadata of every property's type up at run time, for each row decoded).
@_documentation(visibility: private)
public struct _SplitColumnReader: _ColumnReader {
    private let columns: [PropertyEntry]
    private var cursor = 0
    private var rest: PayloadColumnReader
    private let restBytes: Data

    /// A reader of `columns` and `rest`, whose bytes `bytes` are (kept alive by the caller).
    init(columns: [PropertyEntry], rest restBytes: Data, bytes: UnsafeRawBufferPointer) throws {
        self.columns = columns
        self.restBytes = restBytes
        rest = try PayloadColumnReader(bytes)
    }

    /// The value of the column named `column`, if a column holds it.
    private mutating func find(_ column: StaticString) -> PropertyValue? {
        if cursor < columns.count, Self.named(columns[cursor].name, column) {
            cursor += 1
            return columns[cursor - 1].value
        }
        for index in columns.indices where Self.named(columns[index].name, column) {
            cursor = index + 1
            return columns[index].value
        }
        return nil
    }

    private static func named(_ name: String, _ column: StaticString) -> Bool {
        column.withUTF8Buffer { wanted in
            var name = name
            return name.withUTF8 { $0.count == wanted.count && ($0.isEmpty || memcmp($0.baseAddress!, wanted.baseAddress!, $0.count) == 0) }
        }
    }

    public mutating func value(_ column: StaticString, _ ordinal: Int) throws -> StoredValue? {
        guard let value = find(column) else { return try rest.value(column, ordinal) }
        guard let scalar = value.scalar else {
            throw DecodingError.typeMismatch(
                StoredValue.self, .init(codingPath: [ColumnCodingKey(column)], debugDescription: "expected a scalar, found a nested value")
            )
        }
        return scalar
    }

    public mutating func nested<Value: Decodable>(_ type: Value.Type, _ column: StaticString, _ ordinal: Int) throws -> Value? {
        guard let value = find(column) else { return try rest.nested(type, column, ordinal) }
        // A value decoded through `Decodable` (a nested value, or a scalar its type decodes
        // itself) reads from its payload form.
        var bytes: [UInt8] = []
        try value.append(to: &bytes)
        return try bytes.withUnsafeBytes { buffer in
            try PayloadDecoding(reader: PayloadReader(bytes: buffer), offset: 0, codingPath: [ColumnCodingKey(column)]).decodeValue(type, key: nil)
        }
    }

    public func whole<Value: Decodable>(_ type: Value.Type) throws -> Value {
        let payload = try SplitPayload.assemble(rest: restBytes, properties: columns)
        return try payload.withUnsafeBytes { bytes in
            try PayloadDecoding(reader: PayloadReader(bytes: bytes), offset: PayloadFormat.magic.count, codingPath: []).decodeValue(type, key: nil)
        }
    }
}
