import ChatExample
import Foundation
import Relata
import RelataPostgres
import Testing

/// Ids are stored exactly: any Unicode text, control characters included, up to 1,024 bytes, comes
/// back byte for byte after reopening and in another store's catch-up, on SQLite and PostgreSQL;
/// an id holding NUL (which SQLite's C strings would cut and PostgreSQL refuses) or longer than
/// 1,024 bytes (up to 64 KB tried; PostgreSQL's index entries cannot hold it) is refused with a
/// typed error before anything is written, on every backend.
@Suite("Hardening: ids stored exactly", .serialized, .timeLimit(.minutes(5)))
struct StoredIDTests {
    typealias User = ChatExample.User
    typealias Chat = ChatExample.Chat
    static let schema = EntitySchema(User.self, Chat.self, ChatExample.Message.self, ChatExample.Attachment.self)

    /// The backends to check: in memory, SQLite, and PostgreSQL when a server is configured.
    static func backends() throws -> [(name: String, make: () throws -> any StorageBackend, cleanup: () -> Void)] {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        let memory = InMemoryBackend()
        var list: [(name: String, make: () throws -> any StorageBackend, cleanup: () -> Void)] = [
            ("memory", { memory }, {}),
            ("sqlite", { try SQLiteBackend(path: path) }, { try? FileManager.default.removeItem(at: directory) }),
        ]
        if let url = PostgresStoreTests.serverURL() {
            let configuration = PostgresBackend.Configuration(schema: PostgresStoreTests.schema())
            list.append(("postgres", { try PostgresBackend.open(url: url, configuration: configuration) }, {}))
        }
        return list
    }

    /// A random id: mostly short, sometimes long (`long`: up to 64 KB, else up to 1,024 bytes);
    /// scalars from ASCII and C0/C1 controls (never NUL), the rest of the BMP (no surrogates),
    /// combining marks and the other planes.
    static func randomID(_ random: inout SeededGenerator, long: Bool = false) -> String {
        let length: Int =
            switch Int.random(in: 0..<20, using: &random) {
            case _ where long: Int.random(in: 260...16_000, using: &random)  // 4 bytes a scalar at most: 64 KB
            case 0...3: Int.random(in: 100...400, using: &random)
            default: Int.random(in: 1...24, using: &random)
            }
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            let value: UInt32 =
                switch Int.random(in: 0..<6, using: &random) {
                case 0: UInt32.random(in: 1...0x7F, using: &random)
                case 1: UInt32.random(in: 0x80...0x9F, using: &random)
                case 2: UInt32.random(in: 0x300...0x36F, using: &random)
                case 3: UInt32.random(in: 0xA0...0xD7FF, using: &random)
                case 4: UInt32.random(in: 0xE000...0xFFFF, using: &random)
                default: UInt32.random(in: 0x1_0000...0x10_FFFF, using: &random)
                }
            scalars.append(Unicode.Scalar(value)!)
        }
        var id = String(scalars)
        while !long, id.utf8.count > 1_024 { id.unicodeScalars.removeLast() }
        return id
    }

    static func bytes(_ ids: some Sequence<String>) -> Set<[UInt8]> {
        Set(ids.map { Array($0.utf8) })
    }

    @Test("Random ids (all of Unicode, control characters, up to 1,024 bytes) round-trip through save, catch-up and reopen")
    func randomIDsRoundTrip() async throws {
        var random = SeededGenerator(seed: 0x5EED_1D5)
        for backend in try Self.backends() {
            defer { backend.cleanup() }
            let writer = try await Store(backend: try backend.make(), schema: Self.schema, followInterval: nil)
            let follower = try await Store(backend: try backend.make(), schema: Self.schema, followInterval: nil)
            var saved: [String] = []
            for round in 0..<SeededGenerator.rounds(normal: 4, long: 200) {
                var ids: [String] = []
                var seen = Set<[UInt8]>(Self.bytes(saved))
                while ids.count < 25 {
                    let id = Self.randomID(&random)
                    // Swift compares strings by canonical equivalence: keep ids distinct as text.
                    if seen.insert(Array(id.utf8)).inserted, !saved.contains(id), !ids.contains(id) { ids.append(id) }
                }
                let chat = "chat-\(round)"
                try await writer.write { context in
                    for id in ids { try User(id: id, name: "n").save(to: &context) }
                    try Chat(id: chat, users: .ids(ids)).save(to: &context)
                }
                saved += ids
                try await follower.refresh()
                #expect(Self.bytes(follower.context.ids(of: User.self)) == Self.bytes(saved), "\(backend.name): the catch-up")
                #expect(follower.context.ids(of: chat, \Chat.$users).map { Array($0.utf8) } == ids.map { Array($0.utf8) }, "\(backend.name)")
            }
            try await writer.close()
            try await follower.close()
            let reopened = try await Store(backend: try backend.make(), schema: Self.schema, followInterval: nil)
            #expect(Self.bytes(reopened.context.ids(of: User.self)) == Self.bytes(saved), "\(backend.name): reopened")
            for id in saved.prefix(20) { #expect(reopened.context.ids(of: id, \User.$chats).count == 1, "\(backend.name)") }
            try reopened.context.checkInvariants()
            try await reopened.close()
        }
    }

    @Test("Random ids longer than 1,024 bytes (up to 64 KB) are refused with a typed error on every backend; nothing is written")
    func longIDsRefused() async throws {
        var random = SeededGenerator(seed: 0x10_26)
        for backend in try Self.backends() {
            defer { backend.cleanup() }
            let store = try await Store(backend: try backend.make(), schema: Self.schema, followInterval: nil)
            for _ in 0..<SeededGenerator.rounds(normal: 6, long: 200) {
                var id = Self.randomID(&random, long: true)
                while id.utf8.count <= 1_024 { id += Self.randomID(&random, long: true) }
                let refused = id
                await #expect(throws: RelataError.self, "\(backend.name)") {
                    try await store.write { try User(id: refused, name: "n").save(to: &$0) }
                }
                await #expect(throws: RelataError.self, "\(backend.name)") {
                    try await store.write { try Chat(id: "c", users: .ids([refused])).save(to: &$0) }
                }
            }
            let exactly = String(repeating: "é", count: 512)  // 1,024 bytes: kept
            try await store.write { try User(id: exactly, name: "n").save(to: &$0) }
            try await store.close()
            let reopened = try await Store(backend: try backend.make(), schema: Self.schema, followInterval: nil)
            #expect(reopened.context.ids(of: User.self) == [exactly], "\(backend.name)")
            #expect(reopened.context.ids(of: Chat.self).isEmpty, "\(backend.name)")
            try await reopened.close()
        }
    }

    @Test("An id holding NUL is refused with a typed error naming it; nothing is written, on every backend")
    func nulRefused() async throws {
        for backend in try Self.backends() {
            defer { backend.cleanup() }
            let store = try await Store(backend: try backend.make(), schema: Self.schema, followInterval: nil)
            try await store.write { try User(id: "kept", name: "n").save(to: &$0) }
            for index in 0..<2 {
                do {
                    try await store.write { context in
                        if index == 0 {
                            try User(id: "a\u{0}b", name: "n").save(to: &context)
                        } else {
                            try Chat(id: "c", users: .ids(["kept", "x\u{0}"])).save(to: &context)
                        }
                    }
                    Issue.record("\(backend.name) \(index): the write went through")
                } catch let error as RelataError {
                    #expect(error.code == .invalidID, "\(backend.name) \(index)")
                    #expect(error.id?.contains("\\0") == true, "\(backend.name): the id is named, escaped: \(error)")
                    if index == 1 { #expect(error.relation == "users") }
                }
            }
            #expect(store.context.ids(of: User.self) == ["kept"])
            #expect(store.context.ids(of: Chat.self).isEmpty)
            try await store.close()
            let reopened = try await Store(backend: try backend.make(), schema: Self.schema, followInterval: nil)
            #expect(reopened.context.ids(of: User.self) == ["kept"], "\(backend.name): nothing was written")
            try await reopened.close()
        }
    }
}
