/// Where the code `@EntityModel` generates reads an entity's stored properties back
/// (`init(_relataColumns:)`), in the order `_ColumnWriter` wrote them.
///
/// A column that is not stored (a property added to the model after the row was written) reads
/// as `nil`: the property's default when it has one, `nil` when it is optional, and otherwise an
/// error naming the property.
@_documentation(visibility: private)
public protocol _ColumnReader {
    /// The scalar value of a column, `nil` when the column holds none.
    mutating func value(_ column: StaticString, _ ordinal: Int) throws -> StoredValue?
    /// The value of a column stored whole, `nil` when the column holds none.
    mutating func nested<Value: Decodable>(_ type: Value.Type, _ column: StaticString, _ ordinal: Int) throws -> Value?
    /// The entity whole, through its `Decodable` conformance.
    func whole<Value: Decodable>(_ type: Value.Type) throws -> Value
}

/// A column's name in a `DecodingError`'s coding path.
@usableFromInline
struct ColumnCodingKey: CodingKey {
    @usableFromInline var stringValue: String
    @usableFromInline var intValue: Int? { nil }
    @usableFromInline init(stringValue: String) { self.stringValue = stringValue }
    @usableFromInline init?(intValue: Int) { nil }
    @usableFromInline init(_ column: StaticString) { stringValue = column.description }
}

extension _ColumnReader {
    // The generated code names each property by its key path, so the overload that fits the
    // property's type is chosen from the argument (scalar, raw-value enum, or stored whole). The
    // key path is never made (an autoclosure never called): making one per property per row
    // looked its generic metadata up each time, a third of decoding a row.

    @inlinable
    public mutating func read<Root, Value: _StoredScalar>(_ property: @autoclosure () -> KeyPath<Root, Value>, _ column: StaticString, _ ordinal: Int) throws -> Value {
        guard let value = try scalar(Value.self, column, ordinal) else { throw Self.missing(Value.self, column) }
        return value
    }

    @inlinable
    public mutating func read<Root, Value: _StoredScalar>(
        _ property: @autoclosure () -> KeyPath<Root, Value>, _ column: StaticString, _ ordinal: Int, default: @autoclosure () -> Value
    ) throws -> Value {
        try scalar(Value.self, column, ordinal) ?? `default`()
    }

    @inlinable
    public mutating func readOptional<Root, Value: _StoredScalar>(_ property: @autoclosure () -> KeyPath<Root, Value?>, _ column: StaticString, _ ordinal: Int) throws -> Value? {
        try scalar(Value.self, column, ordinal)
    }

    @inlinable
    public mutating func read<Root, Value: RawRepresentable & Decodable>(_ property: @autoclosure () -> KeyPath<Root, Value>, _ column: StaticString, _ ordinal: Int) throws -> Value
    where Value.RawValue: _StoredScalar {
        guard let value = try raw(Value.self, column, ordinal) else { throw Self.missing(Value.self, column) }
        return value
    }

    @inlinable
    public mutating func read<Root, Value: RawRepresentable & Decodable>(
        _ property: @autoclosure () -> KeyPath<Root, Value>, _ column: StaticString, _ ordinal: Int, default: @autoclosure () -> Value
    ) throws -> Value where Value.RawValue: _StoredScalar {
        try raw(Value.self, column, ordinal) ?? `default`()
    }

    @inlinable
    public mutating func readOptional<Root, Value: RawRepresentable & Decodable>(
        _ property: @autoclosure () -> KeyPath<Root, Value?>, _ column: StaticString, _ ordinal: Int
    ) throws -> Value? where Value.RawValue: _StoredScalar {
        try raw(Value.self, column, ordinal)
    }

    @inlinable
    public mutating func read<Root, Value: Decodable>(_ property: @autoclosure () -> KeyPath<Root, Value>, _ column: StaticString, _ ordinal: Int) throws -> Value {
        guard let value = try nested(Value.self, column, ordinal) else { throw Self.missing(Value.self, column) }
        return value
    }

    @inlinable
    public mutating func read<Root, Value: Decodable>(
        _ property: @autoclosure () -> KeyPath<Root, Value>, _ column: StaticString, _ ordinal: Int, default: @autoclosure () -> Value
    ) throws -> Value {
        try nested(Value.self, column, ordinal) ?? `default`()
    }

    @inlinable
    public mutating func readOptional<Root, Value: Decodable>(_ property: @autoclosure () -> KeyPath<Root, Value?>, _ column: StaticString, _ ordinal: Int) throws -> Value? {
        try nested(Value.self, column, ordinal)
    }

    /// A scalar column's value, `nil` when it holds none.
    @inlinable
    mutating func scalar<Value: _StoredScalar>(_ type: Value.Type, _ column: StaticString, _ ordinal: Int) throws -> Value? {
        guard let stored = try value(column, ordinal) else { return nil }
        guard let value = Value(_storedValue: stored) else { throw Self.mismatch(Value.self, stored, column) }
        return value
    }

    /// A raw-value enum column's value, `nil` when it holds none.
    @inlinable
    mutating func raw<Value: RawRepresentable>(_ type: Value.Type, _ column: StaticString, _ ordinal: Int) throws -> Value?
    where Value.RawValue: _StoredScalar {
        guard let raw = try scalar(Value.RawValue.self, column, ordinal) else { return nil }
        guard let value = Value(rawValue: raw) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [ColumnCodingKey(column)], debugDescription: "\(raw) is not a raw value of \(Value.self)"
            ))
        }
        return value
    }

    @usableFromInline
    static func missing(_ type: Any.Type, _ column: StaticString) -> DecodingError {
        DecodingError.keyNotFound(
            ColumnCodingKey(column),
            .init(codingPath: [], debugDescription: "the stored row has no value for the property \(column) (\(type)), which has no default")
        )
    }

    @usableFromInline
    static func mismatch(_ type: Any.Type, _ value: StoredValue, _ column: StaticString) -> DecodingError {
        DecodingError.typeMismatch(
            type, .init(codingPath: [ColumnCodingKey(column)], debugDescription: "expected \(type), found \(value.kind)")
        )
    }
}
