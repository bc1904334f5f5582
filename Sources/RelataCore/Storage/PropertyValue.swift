import Foundation

/// One property's value as a typed column holds it (see ``SplitPayload``).
package enum PropertyValue: Sendable, Equatable {
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case text(String)
    case data(Data)
    /// A nested value as JSON text (see ``PayloadJSON``).
    case json(String)

    /// The kind of column that holds it.
    package var kind: PropertyColumnKind {
        switch self {
        case .bool: .bool
        case .int: .integer
        case .uint: .unsigned
        case .double: .real
        case .text: .text
        case .data: .data
        case .json: .json
        }
    }
}

extension PropertyValue {
    /// The column value of a scalar the generated column code writes.
    init(_ stored: StoredValue) {
        switch stored {
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .uint(let value): self = value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
        case .double(let value): self = .double(value)
        case .text(let value): self = .text(value)
        case .data(let value): self = .data(value)
        }
    }
}

extension PropertyValue {
    /// Appends the value in the payload form (``PayloadFormat``).
    ///
    /// - Throws: `DecodingError` when a JSON value is damaged.
    func append(to bytes: inout [UInt8]) throws {
        if let scalar {
            bytes.appendScalar(scalar)
        } else if case .json(let text) = self {
            try PayloadJSON.append(text, to: &bytes)
        }
    }

    /// The scalar a column reader hands the generated code; `nil` for a JSON value.
    var scalar: StoredValue? {
        switch self {
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .uint(let value): .uint(value)
        case .double(let value): .double(value)
        case .text(let value): .text(value)
        case .data(let value): .data(value)
        case .json: nil
        }
    }
}
