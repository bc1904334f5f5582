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
