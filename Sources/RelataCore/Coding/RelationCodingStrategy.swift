import Foundation

/// How relations are written by `Encodable`.
public enum RelationEncodingStrategy: Sendable, Hashable {
    /// The shape a backend sends: a related entity is the entity itself, a relation known only
    /// by id is `{"id": …}`, to-many relations are arrays of those, and a relation that is
    /// `.none` or `.null` is `null`. Lossy: `.none`, `.null`, fragments and appending are not kept.
    case plain
    /// A lossless shape: `{"ids": […]}`, `{"entities": […]}`, `{"fragments": […]}` (each with
    /// `"appending": true` for appending slices), `{"null": true}`, and `null` for `.none`.
    case keyed
}

/// How relations are read by `Decodable`.
public enum RelationDecodingStrategy: Sendable, Hashable {
    /// Reads the ``RelationEncodingStrategy/plain`` shape: an object with only an `id` key is an
    /// id, any other object an entity, `null` or a missing key `.none`.
    case plain
    /// Reads the ``RelationEncodingStrategy/keyed`` shape.
    case keyed
}

extension CodingUserInfoKey {
    /// The ``RelationEncodingStrategy`` an encoder uses (default ``RelationEncodingStrategy/keyed``).
    public static let relationEncodingStrategy = CodingUserInfoKey(rawValue: "relata.relationEncodingStrategy")!
    /// The ``RelationDecodingStrategy`` a decoder uses (default ``RelationDecodingStrategy/keyed``).
    public static let relationDecodingStrategy = CodingUserInfoKey(rawValue: "relata.relationDecodingStrategy")!
}

extension JSONEncoder {
    /// How this encoder writes relations. Default: ``RelationEncodingStrategy/keyed``.
    public var relationEncodingStrategy: RelationEncodingStrategy {
        get { userInfo[.relationEncodingStrategy] as? RelationEncodingStrategy ?? .keyed }
        set { userInfo[.relationEncodingStrategy] = newValue }
    }

    /// A new encoder with pretty-printed, key-sorted output.
    public static var prettyPrinting: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }
}

extension JSONDecoder {
    /// How this decoder reads relations. Default: ``RelationDecodingStrategy/keyed``.
    public var relationDecodingStrategy: RelationDecodingStrategy {
        get { userInfo[.relationDecodingStrategy] as? RelationDecodingStrategy ?? .keyed }
        set { userInfo[.relationDecodingStrategy] = newValue }
    }
}

extension Encodable {
    /// The JSON text of this value, or `nil` if it cannot be encoded.
    ///
    /// ```swift
    /// let encoder = JSONEncoder.prettyPrinting
    /// encoder.relationEncodingStrategy = .plain
    /// print(user.prettyDescription(with: encoder) ?? "")
    /// ```
    public func prettyDescription(with encoder: JSONEncoder = .prettyPrinting) -> String? {
        guard let data = try? encoder.encode(self) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
