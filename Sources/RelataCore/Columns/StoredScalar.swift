import Foundation

/// A property type stored as one scalar column (`StoredValue`), read and written without
/// `Codable`. The types Relata stores this way conform; other `Codable` types are stored whole.
@_documentation(visibility: private)
public protocol _StoredScalar: Codable {
    /// The stored form of the value.
    var _storedValue: StoredValue { get }
    /// The value of a stored form, or `nil` when the stored value is not one of this type.
    init?(_storedValue: StoredValue)
}

extension _StoredScalar where Self: FixedWidthInteger {
    @inlinable
    public var _storedValue: StoredValue {
        if let value = Int64(exactly: self) { return .int(value) }
        return .uint(UInt64(self))  // only unsigned values above Int64.max get here
    }

    @inlinable
    public init?(_storedValue value: StoredValue) {
        switch value {
        case .int(let value): self.init(exactly: value)
        case .uint(let value): self.init(exactly: value)
        case .double(let value): self.init(exactly: value)
        default: return nil
        }
    }
}

extension Int: _StoredScalar {}
extension Int8: _StoredScalar {}
extension Int16: _StoredScalar {}
extension Int32: _StoredScalar {}
extension Int64: _StoredScalar {}
extension UInt: _StoredScalar {}
extension UInt8: _StoredScalar {}
extension UInt16: _StoredScalar {}
extension UInt32: _StoredScalar {}
extension UInt64: _StoredScalar {}

extension Double: _StoredScalar {
    @inlinable public var _storedValue: StoredValue { .double(self) }

    @inlinable
    public init?(_storedValue value: StoredValue) {
        switch value {
        case .double(let value): self = value
        case .int(let value): self = Double(value)
        case .uint(let value): self = Double(value)
        default: return nil
        }
    }
}

extension Float: _StoredScalar {
    @inlinable public var _storedValue: StoredValue { .double(Double(self)) }

    @inlinable
    public init?(_storedValue value: StoredValue) {
        guard let double = Double(_storedValue: value) else { return nil }
        self = Float(double)
    }
}

extension Bool: _StoredScalar {
    @inlinable public var _storedValue: StoredValue { .bool(self) }

    @inlinable
    public init?(_storedValue value: StoredValue) {
        guard case .bool(let value) = value else { return nil }
        self = value
    }
}

extension String: _StoredScalar {
    @inlinable public var _storedValue: StoredValue { .text(self) }

    @inlinable
    public init?(_storedValue value: StoredValue) {
        guard case .text(let value) = value else { return nil }
        self = value
    }
}

extension Date: _StoredScalar {
    /// Seconds since 2001-01-01 as a `Double`: the `Date` itself, so it compares equal after the
    /// round trip.
    @inlinable public var _storedValue: StoredValue { .double(timeIntervalSinceReferenceDate) }

    @inlinable
    public init?(_storedValue value: StoredValue) {
        guard let seconds = Double(_storedValue: value) else { return nil }
        self.init(timeIntervalSinceReferenceDate: seconds)
    }
}

extension UUID: _StoredScalar {
    @inlinable public var _storedValue: StoredValue { .text(uuidString) }

    @inlinable
    public init?(_storedValue value: StoredValue) {
        guard case .text(let text) = value else { return nil }
        self.init(uuidString: text)
    }
}

extension URL: _StoredScalar {
    @inlinable public var _storedValue: StoredValue { .text(absoluteString) }

    @inlinable
    public init?(_storedValue value: StoredValue) {
        guard case .text(let text) = value else { return nil }
        self.init(string: text)
    }
}

extension Data: _StoredScalar {
    @inlinable public var _storedValue: StoredValue { .data(self) }

    @inlinable
    public init?(_storedValue value: StoredValue) {
        guard case .data(let data) = value else { return nil }
        self = data
    }
}
