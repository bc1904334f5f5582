import Foundation

/// The text form of entity ids in storage: `String` ids as they are, `Int`s in decimal, `UUID`s
/// upper-case, anything else as its JSON.
@usableFromInline
enum IDText {
    @inlinable
    static func encode<ID: Encodable>(_ id: ID) throws -> String {
        // Type checks first: `as?` on a generic value is a dynamic cast, costly per row, unless
        // specialized (the store paths are), where it costs nothing.
        if ID.self == String.self, let text = id as? String { return text }
        if ID.self == Int.self, let value = id as? Int { return String(value) }
        if ID.self == UUID.self, let id = id as? UUID { return id.uuidString }
        return String(decoding: try JSONEncoder().encode(id), as: UTF8.self)
    }

    @inlinable
    static func decode<ID: Decodable>(_ text: String, as _: ID.Type) throws -> ID {
        if ID.self == String.self, let id = text as? ID { return id }
        if ID.self == Int.self, let value = Int(text), let id = value as? ID { return id }
        if ID.self == UUID.self, let value = UUID(uuidString: text) { return value as! ID }
        return try JSONDecoder().decode(ID.self, from: Data(text.utf8))
    }
}
