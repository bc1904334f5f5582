import Foundation

/// Writes an entity's columns as a row of typed columns stores them: each property whose value
/// a column can hold exactly as a ``PropertyEntry`` (a scalar as itself, a nested value as JSON
/// text), and the rest — `NaN`, text holding a NUL character, nested values JSON cannot hold
/// exactly — as entries of a keyed payload (``SplitPayload``'s split, made without a payload
/// first). A `nil` optional is left out, as `Codable`'s `encodeIfPresent` leaves it out.
///
/// The one writer `_relataWriteColumns(_:to:)` is handed: a concrete type, so that the code
/// `@EntityModel` generates in the model's module is specialized for it.
@_documentation(visibility: private)
public struct _SplitColumnWriter: _ColumnWriter {
    /// The values columns hold, in declaration order.
    var columns: [PropertyEntry] = []
    /// The entries no column holds.
    private var rest: [UInt8] = []
    private var restCount = 0
    /// The whole payload, when the entity was written through `Encodable`.
    private var whole: Data?
    /// The bytes of the nested value being written.
    private var scratch: [UInt8] = []

    init() {}

    private static func name(_ column: StaticString) -> String {
        column.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    }

    /// Keeps the payload value `bytes` under `column` in the rest.
    private mutating func keep(_ bytes: [UInt8], _ column: StaticString) {
        restCount += 1
        column.withUTF8Buffer { name in
            rest.appendVarint(UInt64(name.count))
            rest.append(contentsOf: name)
        }
        rest.append(contentsOf: bytes)
    }

    public mutating func write(_ value: StoredValue, _ column: StaticString, _ ordinal: Int) {
        if let value = SplitPayload.columnValue(value) {
            columns.append(PropertyEntry(name: Self.name(column), value: value))
            return
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.appendScalar(value)
        keep(scratch, column)
    }

    public mutating func writeNull(_ column: StaticString, _ ordinal: Int) {}

    public mutating func writeNested<Value: Encodable>(_ value: Value, _ column: StaticString, _ ordinal: Int) throws {
        let node = PayloadNode()
        node.kind = .single
        let encoder = PayloadEncoding(node: node, codingPath: [ColumnCodingKey(column)])
        try node.encodeValue(value, encoder: encoder, key: nil)
        if let error = encoder.failure.error { throw error }
        scratch.removeAll(keepingCapacity: true)
        node.write(into: &scratch)
        let held = try scratch.withUnsafeBytes { try SplitPayload.columnValue(PayloadReader(bytes: $0), at: 0) }
        if let held {
            columns.append(PropertyEntry(name: Self.name(column), value: held))
        } else {
            keep(scratch, column)
        }
    }

    public mutating func writeWhole<Value: Encodable>(_ value: Value) throws {
        whole = try PayloadCoding.encode(value, with: PayloadEncoder())
    }

    /// The split row: the rest as a whole payload, and the columns — or, for an entity written
    /// whole, its payload split.
    func split() throws -> SplitPayload {
        if let whole { return try SplitPayload(splitting: whole) }
        return SplitPayload(rest: SplitPayload.payload(count: restCount, entries: rest), properties: columns)
    }
}
