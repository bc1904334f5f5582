import Dispatch
import Foundation
import Relata
@testable import RelataPostgres
import Testing

extension PostgresStoreTests {
    /// A write takes the writers' lock and reads the log's bounds in one statement
    /// (`relata_write_start`): the bounds must be read once the lock is held, so that a write
    /// that waited for another sees that one's commit.
    @Suite("PostgreSQL store: a write's lock and the log's bounds in one statement")
    struct WriteStart {
        typealias Chat = MultiProcessStoreTests.Chat
        typealias Message = MultiProcessStoreTests.Message

        static func open(_ url: String, _ schema: String) async throws -> (Store, PostgresBackend) {
            try await PostgresStoreTests.unfollowedStore(url, schema)
        }

        /// Runs `work` on a dispatch thread (it blocks on the store's synchronous write).
        static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
            }
        }

        @Test("A write that waited for another's lock sees its commit: the message it appends goes after the other's")
        func waitingWriteSeesTheCommitItWaitedFor() async throws {
            guard let url = PostgresStoreTests.serverURL() else { return }
            let schema = PostgresStoreTests.schema()
            let (first, _) = try await Self.open(url, schema)
            let (second, _) = try await Self.open(url, schema)
            try await first.write { try Chat(id: "c").save(to: &$0) }
            // The second store has read the chat (its messages: none) before the first writes.
            #expect(try await second.read { $0.ids(of: "c", \Chat.$messages) } == [])
            for round in 0..<3 {
                let holding = DispatchSemaphore(value: 0)
                let seen = try await withThrowingTaskGroup(of: [String]?.self) { group in
                    group.addTask {
                        try await Self.offPool {
                            try first.write { context in
                                try Message(id: "a\(round)", text: "a", author: .id("u"), chat: .id("c")).save(to: &context)
                                holding.signal()
                                // The other write's start waits for this lock meanwhile.
                                Thread.sleep(forTimeInterval: 0.3)
                            }
                            return nil
                        }
                    }
                    group.addTask {
                        try await Self.offPool {
                            holding.wait()
                            return try second.write { context in
                                let before = context.ids(of: "c", \Chat.$messages)
                                try Message(id: "b\(round)", text: "b", author: .id("u"), chat: .id("c")).save(to: &context)
                                return before
                            }
                        }
                    }
                    var seen: [String] = []
                    for try await result in group { if let result { seen = result } }
                    return seen
                }
                #expect(seen.last == "a\(round)", "round \(round): the waiting write read \(seen)")
            }
            let stored = try await first.read { $0.ids(of: "c", \Chat.$messages) }
            #expect(stored == ["a0", "b0", "a1", "b1", "a2", "b2"])
            try await first.close()
            try await second.close()
        }

        @Test("A schema an earlier library made, without relata_write_start, gets it at open; the schema stays current for it")
        func addedToAnEarlierSchema() async throws {
            guard let url = PostgresStoreTests.serverURL() else { return }
            let schema = PostgresStoreTests.schema()
            let (store, _) = try await Self.open(url, schema)
            try await store.write { try Chat(id: "c").save(to: &$0) }
            try await store.close()
            let dropper = try PostgresBackend.open(url: url, configuration: .init(schema: schema))
            try await dropper.runOffPool("DROP FUNCTION \"\(schema)\".relata_write_start(int8)")
            try await Self.offPool { try dropper.close() }
            let (reopened, _) = try await Self.open(url, schema)
            try await reopened.write { try Message(id: "m", text: "hi", author: .id("u"), chat: .id("c")).save(to: &$0) }
            #expect(try await reopened.read { $0.ids(of: "c", \Chat.$messages) } == ["m"])
            try await reopened.close()
        }
    }
}
