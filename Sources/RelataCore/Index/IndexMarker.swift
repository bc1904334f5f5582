/// An index declaration (``Index``, ``HashIndex``, ``FullTextIndex``): a property that holds
/// nothing, left out when its entity is encoded and made empty when it is decoded, so a
/// `Codable` entity keeps its synthesized conformance.
public protocol _IndexMarker: Sendable, Hashable, Codable {
    init(wrappedValue: Never.Type?)
}

extension _IndexMarker {
    public init(from decoder: any Decoder) throws { self.init(wrappedValue: nil) }

    public func encode(to encoder: any Encoder) throws {}

    public static func == (lhs: Self, rhs: Self) -> Bool { true }

    public func hash(into hasher: inout Hasher) {}
}

extension KeyedEncodingContainer {
    /// Writes nothing for an index declaration.
    public mutating func encode<T: _IndexMarker>(_ value: T, forKey key: Key) throws {}
}

extension KeyedDecodingContainer {
    /// An empty index declaration, whatever the container holds.
    public func decode<T: _IndexMarker>(_ type: T.Type, forKey key: Key) throws -> T { T(wrappedValue: nil) }
}
