import Foundation

/// The text form of entity ids in storage: `String` ids as they are, `Int`s in decimal, `UUID`s
/// upper-case, anything else as its JSON.
///
/// Every id of at most ``maxLength`` UTF-8 bytes — any Unicode text, control characters
/// included — is stored byte for byte, on every backend. Two kinds are refused with
/// ``RelataError/Code/invalidID`` before anything is written, on every backend alike: an id
/// holding U+0000 (NUL), which SQLite reads back through C strings (cut at the NUL, naming
/// another entity) and PostgreSQL refuses; and an id longer than ``maxLength``, which
/// PostgreSQL's B-tree indexes cannot hold (an index entry is at most about 2.7 KB, and a link's
/// key holds two ids).
@usableFromInline
enum IDText {
    /// The longest id a store keeps, in UTF-8 bytes (the limit of S3 keys; Firestore's is 1,500).
    @usableFromInline static let maxLength = 1_024

    /// The text of `id`, an id of the entity type stored as `type` (in `relation`, when it is a
    /// link's end), for errors.
    @inlinable
    static func encode<ID: Encodable>(_ id: ID, of type: String, relation: String? = nil) throws -> String {
        // Type checks first: `as?` on a generic value is a dynamic cast, costly per row, unless
        // specialized (the store paths are), where it costs nothing.
        if ID.self == String.self, let text = id as? String {
            if text.utf8.count > maxLength || containsNUL(text) { throw refusal(text, of: type, relation: relation) }
            return text
        }
        if ID.self == Int.self, let value = id as? Int { return String(value) }
        if ID.self == UUID.self, let id = id as? UUID { return id.uuidString }
        let text = String(decoding: try JSONEncoder().encode(id), as: UTF8.self)
        if text.utf8.count > maxLength { throw refusal(text, of: type, relation: relation) }
        return text
    }

    /// Whether `text` holds a NUL byte.
    @inlinable
    static func containsNUL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.count > 0 && memchr(bytes.baseAddress!, 0, bytes.count) != nil }
    }

    /// The error for an id a store cannot keep (NUL, or too long).
    @usableFromInline
    static func refusal(_ text: String, of type: String, relation: String?) -> RelataError {
        let place = relation.map { "an id linked through \(type).\($0)" } ?? "the id of \(type)"
        if text.utf8.count > maxLength {
            let shown = String(String(text.unicodeScalars.prefix(40)).debugDescription.dropFirst().dropLast()) + "…"
            return RelataError(
                code: .invalidID, entityType: type, id: shown, relation: relation,
                message: "\(place), \"\(shown)\", is \(text.utf8.count) bytes long; a store keeps ids of at most \(maxLength) bytes; nothing was written"
            )
        }
        // The id is named with its NUL escaped, so the message is safe to print and log.
        let shown = String(text.debugDescription.dropFirst().dropLast())
        return RelataError(
            code: .invalidID, entityType: type, id: shown, relation: relation,
            message: "\(place), \"\(shown)\", holds U+0000 (NUL), which a store cannot keep; nothing was written"
        )
    }

    @inlinable
    static func decode<ID: Decodable>(_ text: String, as _: ID.Type) throws -> ID {
        if ID.self == String.self, let id = text as? ID { return id }
        if ID.self == Int.self, let value = Int(text), let id = value as? ID { return id }
        if ID.self == UUID.self, let value = UUID(uuidString: text) { return value as! ID }
        return try JSONDecoder().decode(ID.self, from: Data(text.utf8))
    }
}
