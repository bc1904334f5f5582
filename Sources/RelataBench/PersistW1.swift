import Foundation
import Relata

/// W1 operation 5 on Relata: save through a `Store` on a SQLite file (one write per 1,000
/// messages), close, reopen, and resolve on the reopened store.
enum PersistW1 {
    static let entities: [any EntityModelProtocol.Type] = [User.self, Chat.self, Message.self, Attachment.self]

    static func save(_ data: W1Data, path: String) async throws {
        let store = try await Store(backend: SQLiteBackend(path: path), schema: EntitySchema(entities))
        try await save(data, to: store)
        try await store.close()
    }

    /// Saves W1 through `store`: users and chats in one write, then one write per 1,000 messages.
    static func save(_ data: W1Data, to store: Store) async throws {
        try await store.write { context in
            for user in data.users { try user.save(to: &context) }
            for chat in data.chats { try chat.save(to: &context) }
        }
        for start in stride(from: 0, to: data.messages.count, by: 1_000) {
            let batch = data.messages[start..<min(start + 1_000, data.messages.count)]
            try await store.write { context in
                for message in batch { try message.save(to: &context) }
            }
        }
    }

    static func open(path: String) async throws -> Store {
        try await Store(backend: SQLiteBackend(path: path), schema: EntitySchema(entities))
    }
}

/// Deletes a SQLite file and its WAL companions.
func removeDatabase(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
