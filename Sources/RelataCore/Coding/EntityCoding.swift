import Foundation

// What the `Codable` conformance `@EntityModel` writes for a struct that does not declare
// `Codable` calls (see `CodableDecls` in the macro): for a property of a `Codable` type, exactly
// what Swift's synthesized conformance calls; for any other type, an error naming the property
// at run time, so that such an entity compiles and lives in memory.

extension KeyedEncodingContainer {
    @_documentation(visibility: private)
    @inlinable
    public mutating func _relataEncode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encode(value, forKey: key)
    }

    @_documentation(visibility: private)
    public mutating func _relataEncode<T>(_ value: T, forKey key: Key) throws {
        throw EncodingError.invalidValue(value, .init(codingPath: codingPath + [key], debugDescription: notCodableMessage(T.self, property: key.stringValue)))
    }

    @_documentation(visibility: private)
    @inlinable
    public mutating func _relataEncodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try encodeIfPresent(value, forKey: key)
    }

    @_documentation(visibility: private)
    public mutating func _relataEncodeIfPresent<T>(_ value: T?, forKey key: Key) throws {
        guard let value else { return }
        throw EncodingError.invalidValue(value, .init(codingPath: codingPath + [key], debugDescription: notCodableMessage(T.self, property: key.stringValue)))
    }
}

extension KeyedDecodingContainer {
    @_documentation(visibility: private)
    @inlinable
    public func _relataDecode<T: Decodable>(forKey key: Key) throws -> T {
        try decode(T.self, forKey: key)
    }

    @_documentation(visibility: private)
    public func _relataDecode<T>(forKey key: Key) throws -> T {
        throw DecodingError.typeMismatch(T.self, .init(codingPath: codingPath + [key], debugDescription: notCodableMessage(T.self, property: key.stringValue)))
    }

    @_documentation(visibility: private)
    @inlinable
    public func _relataDecodeIfPresent<T: Decodable>(forKey key: Key) throws -> T? {
        try decodeIfPresent(T.self, forKey: key)
    }

    @_documentation(visibility: private)
    public func _relataDecodeIfPresent<T>(forKey key: Key) throws -> T? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        throw DecodingError.typeMismatch(T.self, .init(codingPath: codingPath + [key], debugDescription: notCodableMessage(T.self, property: key.stringValue)))
    }

    @_documentation(visibility: private)
    @inlinable
    public func _relataDecodeRelationship<Target, D, C>(forKey key: Key) throws -> Relationship<Target, D, C> {
        try decode(Relationship<Target, D, C>.self, forKey: key)
    }
}

/// Why a property cannot be coded (an entity's `Codable` conformance or its column code).
func notCodableMessage(_ type: Any.Type, property: String) -> String {
    "the property \(property) is of type \(type), which is not Codable: an entity with it lives in memory only"
}
