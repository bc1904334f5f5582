import Foundation
import Relata
@testable import RelataPostgres
import Testing

extension PostgresStoreTests {
    /// A store of `MultiProcessStoreTests`' models on `schema`, not following other stores'
    /// commits (each read asks storage), and its backend.
    static func unfollowedStore(_ url: String, _ schema: String, maxReaders: Int = 4) async throws -> (Store, PostgresBackend) {
        let backend = try await PostgresBackend.connect(url: url, configuration: .init(schema: schema, maxReaders: maxReaders))
        let store = try await Store(
            backend: backend,
            schema: EntitySchema(
                MultiProcessStoreTests.User.self, MultiProcessStoreTests.Chat.self, MultiProcessStoreTests.Message.self,
                MultiProcessStoreTests.Attachment.self),
            followInterval: nil
        )
        return (store, backend)
    }

    /// A reader connection rests between reads with the next read's transaction begun (its
    /// `COMMIT` and the next `BEGIN` sent as the read ends): what a user relies on is that a read
    /// still starts on the newest commit, that a resting connection holds back nothing on the
    /// server, and that a read which failed leaves its connection fit for the next.
    @Suite("PostgreSQL store: reader connections rest with the next read begun")
    struct ReaderRest {
        typealias Chat = MultiProcessStoreTests.Chat
        typealias Message = MultiProcessStoreTests.Message

        static func open(_ url: String, _ schema: String) async throws -> (Store, PostgresBackend) {
            try await PostgresStoreTests.unfollowedStore(url, schema, maxReaders: 1)
        }

        @Test("Resting reader and writer connections are idle in a transaction that holds no snapshot (they keep VACUUM from nothing)")
        func restingHoldsNoSnapshot() async throws {
            guard let url = PostgresStoreTests.serverURL() else { return }
            let (store, backend) = try await Self.open(url, PostgresStoreTests.schema())
            try await store.write { try Chat(id: "c").save(to: &$0) }
            #expect(try await store.read { $0.entity(Chat.self, id: "c") } != nil)
            // The COMMIT and BEGIN sent as the read ended (the BEGIN after the write) are
            // answered within moments.
            var connections: [PostgresBackend.Activity] = []
            for _ in 0..<100 {
                connections = try backend.activity()
                if connections.allSatisfy({ $0.state == "idle in transaction" }) { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(connections.map(\.name).sorted() == ["relata reads", "relata writes"].map { "\($0) \(backend.configuration.schema)" })
            #expect(connections.allSatisfy { $0.state == "idle in transaction" && !$0.holdsSnapshot }, "\(connections)")
            try await store.close()
            // Connections close without the store waiting for the server to see them go.
            var left = try backend.activity()
            for _ in 0..<100 where !left.isEmpty {
                try await Task.sleep(for: .milliseconds(20))
                left = try backend.activity()
            }
            #expect(left.isEmpty, "a closed store leaves no connection: \(left)")
        }

        @Test("A read on a resting connection sees every commit made before it, however long the connection rested")
        func restingReadsTheNewestCommit() async throws {
            guard let url = PostgresStoreTests.serverURL() else { return }
            let schema = PostgresStoreTests.schema()
            let (reader, _) = try await Self.open(url, schema)
            let (writer, _) = try await Self.open(url, schema)
            try await writer.write { try Chat(id: "c").save(to: &$0) }
            for round in 0..<20 {
                // The reader's connection rests (its next BEGIN answered) before the commit.
                let before = try await reader.read { $0.ids(of: "c", \Chat.$messages).count }
                #expect(before == round)
                try await Task.sleep(for: .milliseconds(5))
                try await writer.write {
                    try Message(id: "m\(round)", text: "hi", author: .id("u"), chat: .id("c")).save(to: &$0)
                }
                let after = try await reader.read { $0.ids(of: "c", \Chat.$messages).count }
                #expect(after == round + 1, "round \(round): a new read missed a commit made before it")
            }
            try await reader.close()
            try await writer.close()
        }

        struct Refused: Error {}

        @Test("A read that throws, after its statements or before them, leaves its connection fit for the next read")
        func failedReadsRest() async throws {
            guard let url = PostgresStoreTests.serverURL() else { return }
            let schema = PostgresStoreTests.schema()
            let (store, backend) = try await Self.open(url, schema)
            let (writer, _) = try await Self.open(url, schema)
            try await writer.write { try Chat(id: "c").save(to: &$0) }
            for round in 0..<5 {
                await #expect(throws: Refused.self) {
                    try await store.read { context in
                        if round.isMultiple(of: 2) { _ = context.entity(Chat.self, id: "c") }
                        throw Refused()
                    }
                }
                try await writer.write {
                    try Message(id: "m\(round)", text: "hi", author: .id("u"), chat: .id("c")).save(to: &$0)
                }
                #expect(try await store.read { $0.ids(of: "c", \Chat.$messages).count } == round + 1)
            }
            #expect(backend.readerConnectionCount == 1)
            try await store.close()
            try await writer.close()
        }

        @Test("A write that throws leaves the connection for writes fit for the next write")
        func failedWritesRest() async throws {
            guard let url = PostgresStoreTests.serverURL() else { return }
            let (store, _) = try await Self.open(url, PostgresStoreTests.schema())
            try await store.write { try Chat(id: "c").save(to: &$0) }
            for round in 0..<4 {
                await #expect(throws: Refused.self) {
                    try await store.write { context in
                        try Message(id: "x\(round)", text: "no", author: .id("u"), chat: .id("c")).save(to: &context)
                        throw Refused()
                    }
                }
                try await store.write { try Message(id: "m\(round)", text: "hi", author: .id("u"), chat: .id("c")).save(to: &$0) }
            }
            #expect(try await store.read { $0.ids(of: "c", \Chat.$messages) } == ["m0", "m1", "m2", "m3"])
            try await store.close()
        }
    }
}
