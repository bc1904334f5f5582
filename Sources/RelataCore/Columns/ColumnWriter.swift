/// Where the code `@EntityModel` generates writes an entity's stored properties, one column
/// each, in declaration order (`_relataWriteColumns(_:to:)`).
///
/// A column is named by the property's name and its ordinal (its place among the columns).
@_documentation(visibility: private)
public protocol _ColumnWriter {
    /// Writes a scalar column.
    mutating func write(_ value: StoredValue, _ column: StaticString, _ ordinal: Int)
    /// Writes a column that holds no value (a `nil` optional).
    mutating func writeNull(_ column: StaticString, _ ordinal: Int)
    /// Writes a column whose value is stored whole (any `Encodable` that is not a scalar).
    mutating func writeNested<Value: Encodable>(_ value: Value, _ column: StaticString, _ ordinal: Int) throws
    /// Writes the entity whole, through its `Encodable` conformance (a type whose columns are
    /// not generated: a hand-written conformance, custom `CodingKeys`).
    mutating func writeWhole<Value: Encodable>(_ value: Value) throws
}

extension _ColumnWriter {
    // Every helper throws, scalar ones too: the generated code writes `try` before each call
    // without knowing which overload a property's type picks.
    @inlinable
    public mutating func write<Value: _StoredScalar>(_ value: Value, _ column: StaticString, _ ordinal: Int) throws {
        write(value._storedValue, column, ordinal)
    }

    @inlinable
    public mutating func writeOptional<Value: _StoredScalar>(_ value: Value?, _ column: StaticString, _ ordinal: Int) throws {
        if let value { write(value._storedValue, column, ordinal) } else { writeNull(column, ordinal) }
    }

    /// A raw-value enum, stored as its raw value.
    @inlinable
    public mutating func write<Value: RawRepresentable & Encodable>(_ value: Value, _ column: StaticString, _ ordinal: Int) throws
    where Value.RawValue: _StoredScalar {
        write(value.rawValue._storedValue, column, ordinal)
    }

    @inlinable
    public mutating func writeOptional<Value: RawRepresentable & Encodable>(_ value: Value?, _ column: StaticString, _ ordinal: Int) throws
    where Value.RawValue: _StoredScalar {
        if let value { write(value.rawValue._storedValue, column, ordinal) } else { writeNull(column, ordinal) }
    }

    @inlinable
    public mutating func write<Value: Encodable>(_ value: Value, _ column: StaticString, _ ordinal: Int) throws {
        try writeNested(value, column, ordinal)
    }

    @inlinable
    public mutating func writeOptional<Value: Encodable>(_ value: Value?, _ column: StaticString, _ ordinal: Int) throws {
        if let value { try writeNested(value, column, ordinal) } else { writeNull(column, ordinal) }
    }
}
