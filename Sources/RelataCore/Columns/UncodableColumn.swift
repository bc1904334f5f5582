// The column overloads for a property whose type is not `Codable` (an entity that lives in memory
// only, see `CodableDecls` in the macro): chosen last, they fail with an error naming the property,
// so that the code `@EntityModel` generates compiles for every type.

extension _ColumnWriter {
    @_documentation(visibility: private)
    public mutating func write<Value>(_ value: Value, _ column: StaticString, _ ordinal: Int) throws {
        throw EncodingError.invalidValue(value, .init(codingPath: [ColumnCodingKey(column)], debugDescription: notCodableMessage(Value.self, property: column.description)))
    }

    @_documentation(visibility: private)
    public mutating func writeOptional<Value>(_ value: Value?, _ column: StaticString, _ ordinal: Int) throws {
        guard let value else { return writeNull(column, ordinal) }
        throw EncodingError.invalidValue(value, .init(codingPath: [ColumnCodingKey(column)], debugDescription: notCodableMessage(Value.self, property: column.description)))
    }
}

extension _ColumnReader {
    @_documentation(visibility: private)
    public mutating func read<Root, Value>(_ property: KeyPath<Root, Value>, _ column: StaticString, _ ordinal: Int) throws -> Value {
        throw DecodingError.typeMismatch(Value.self, .init(codingPath: [ColumnCodingKey(column)], debugDescription: notCodableMessage(Value.self, property: column.description)))
    }

    @_documentation(visibility: private)
    public mutating func read<Root, Value>(
        _ property: KeyPath<Root, Value>, _ column: StaticString, _ ordinal: Int, default: @autoclosure () -> Value
    ) throws -> Value {
        throw DecodingError.typeMismatch(Value.self, .init(codingPath: [ColumnCodingKey(column)], debugDescription: notCodableMessage(Value.self, property: column.description)))
    }

    @_documentation(visibility: private)
    public mutating func readOptional<Root, Value>(_ property: KeyPath<Root, Value?>, _ column: StaticString, _ ordinal: Int) throws -> Value? {
        guard try value(column, ordinal) != nil else { return nil }
        throw DecodingError.typeMismatch(Value.self, .init(codingPath: [ColumnCodingKey(column)], debugDescription: notCodableMessage(Value.self, property: column.description)))
    }
}
