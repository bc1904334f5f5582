import Foundation

/// Writes an entity's columns as one keyed `PayloadFormat` payload: an entry per property,
/// keyed by its name, in declaration order — the form `Codable` gave the same entity, so rows
/// written either way read either way. A `nil` optional is left out, like `encodeIfPresent`.
struct PayloadColumnWriter: _ColumnWriter {
    /// The entries written so far.
    var body: [UInt8]
    var count = 0
    /// The whole payload, when the entity was written through `Encodable`.
    var whole: Data?

    init(reusing body: [UInt8]) {
        self.body = body
        self.body.removeAll(keepingCapacity: true)
    }

    private mutating func key(_ column: StaticString) {
        count += 1
        column.withUTF8Buffer { name in
            body.appendVarint(UInt64(name.count))
            body.append(contentsOf: name)
        }
    }

    mutating func write(_ value: StoredValue, _ column: StaticString, _ ordinal: Int) {
        key(column)
        body.appendScalar(value)
    }

    mutating func writeNull(_ column: StaticString, _ ordinal: Int) {}

    mutating func writeNested<Value: Encodable>(_ value: Value, _ column: StaticString, _ ordinal: Int) throws {
        key(column)
        let node = PayloadNode()
        node.kind = .single
        let encoder = PayloadEncoding(node: node, codingPath: [ColumnCodingKey(column)])
        try node.encodeValue(value, encoder: encoder, key: nil)
        if let error = encoder.failure.error { throw error }
        node.write(into: &body)
    }

    mutating func writeWhole<Value: Encodable>(_ value: Value) throws {
        whole = try PayloadCoding.encode(value, with: PayloadEncoder())
    }

    /// The payload: the format's header and one keyed value holding the entries.
    func payload(into scratch: inout [UInt8]) -> Data {
        if let whole { return whole }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: PayloadFormat.magic)
        scratch.appendTag(.keyed)
        scratch.appendVarint(UInt64(count))
        scratch.appendVarint(UInt64(body.count))
        scratch.append(contentsOf: body)
        return Data(scratch)
    }
}
