import Foundation
import Synchronization

/// How relations are written by `Encodable`.
///
/// ``plain``, ``keyedContainer`` and ``explicitKeyedContainer`` are SwiftletModel's shapes,
/// byte for byte; ``keyed`` is Relata's lossless shape, the default (stores and change sets use
/// it).
public enum RelationEncodingStrategy: Sendable, Hashable {
    /// The shape a backend sends: a related entity is the entity itself, a relation known only
    /// by id is `{"id": …}`, to-many relations are arrays of those, and a relation that is
    /// `.none` or `.null` is `null`. Lossy: `.none`, `.null`, fragments and appending are not kept.
    case plain
    /// SwiftletModel's keyed container: a one-key object — `{"id": …}` for a to-one id (`null`
    /// for `.null`), `{"object": {…}}` for a to-one entity, `{"ids": […]}` for to-many ids,
    /// `{"objects": […]}` for to-many entities; `.none` is `null`. Appending is not kept.
    case keyedContainer
    /// ``keyedContainer`` plus appending slices: `{"slice_ids": […]}` and `{"slice": […]}`.
    case explicitKeyedContainer
    /// A lossless shape: `{"ids": […]}`, `{"entities": […]}`, `{"fragments": […]}` (each with
    /// `"appending": true` for appending slices), `{"null": true}`, and `null` for `.none`.
    case keyed

    /// The key of an encoder's `userInfo` that holds its strategy (SwiftletModel's name).
    public static let userInfoKey = CodingUserInfoKey.relationEncodingStrategy
}

/// How relations are read by `Decodable`: the shapes a decoder accepts. A relation is read in
/// the first of ``keyed``, ``explicitKeyedContainer``, ``keyedContainer``, ``plain`` (among
/// those in the set) that reads it, as SwiftletModel tries explicit, then keyed, then plain.
/// `null` is `.none` whatever the set. As in SwiftletModel, an object is always read by a
/// container shape when one is in the set: one with none of its keys is `.none`.
public struct RelationDecodingStrategy: OptionSet, Sendable, Hashable {
    /// The bits of the shapes in the set.
    public let rawValue: UInt

    /// The set of shapes whose bits `rawValue` holds.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// The ``RelationEncodingStrategy/plain`` shape: an object with only an `id` key is an id,
    /// any other object an entity, an array a to-many relation of those.
    public static let plain = Self(rawValue: 1 << 0)
    /// The ``RelationEncodingStrategy/keyedContainer`` shape.
    public static let keyedContainer = Self(rawValue: 1 << 1)
    /// The ``RelationEncodingStrategy/explicitKeyedContainer`` shape (slices included).
    public static let explicitKeyedContainer = Self(rawValue: 1 << 2)
    /// The ``RelationEncodingStrategy/keyed`` shape (the default).
    public static let keyed = Self(rawValue: 1 << 3)

    /// The key of a decoder's `userInfo` that holds its strategy (SwiftletModel's name).
    public static let userInfoKey = CodingUserInfoKey.relationDecodingStrategy

    /// The shapes in the order a decoder tries them.
    static let order: [RelationDecodingStrategy] = [.keyed, .explicitKeyedContainer, .keyedContainer, .plain]
}

extension CodingUserInfoKey {
    /// The ``RelationEncodingStrategy`` an encoder uses (default ``RelationEncodingStrategy/keyed``).
    public static let relationEncodingStrategy = CodingUserInfoKey(rawValue: "relata.relationEncodingStrategy")!
    /// The ``RelationDecodingStrategy`` a decoder uses (default ``RelationDecodingStrategy/keyed``).
    public static let relationDecodingStrategy = CodingUserInfoKey(rawValue: "relata.relationDecodingStrategy")!
}

extension Encoder {
    /// How relations are written here: the `userInfo` value, by default ``RelationEncodingStrategy/keyed``.
    public var relationEncodingStrategy: RelationEncodingStrategy {
        userInfo[.relationEncodingStrategy] as? RelationEncodingStrategy ?? .keyed
    }
}

extension Decoder {
    /// How relations are read here: the `userInfo` value, by default ``RelationDecodingStrategy/keyed``.
    public var relationDecodingStrategy: RelationDecodingStrategy {
        userInfo[.relationDecodingStrategy] as? RelationDecodingStrategy ?? .keyed
    }
}

extension JSONEncoder {
    /// How this encoder writes relations. Default: ``RelationEncodingStrategy/keyed``.
    public var relationEncodingStrategy: RelationEncodingStrategy {
        get { userInfo[.relationEncodingStrategy] as? RelationEncodingStrategy ?? .keyed }
        set { userInfo[.relationEncodingStrategy] = newValue }
    }

    /// A new encoder with pretty-printed, key-sorted output and slashes left unescaped — the same
    /// text as SwiftletModel's `prettyPrinting`.
    public static var prettyPrinting: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
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
