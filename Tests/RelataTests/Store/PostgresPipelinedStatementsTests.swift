import ChatExample
import Foundation
import PropertyBased
import Relata
import RelataPostgres
import Synchronization
import Testing

/// A PostgreSQL transaction sends its `BEGIN`, the writers' lock (for a write) and the read of
/// the log's bounds one after another without waiting: one round trip where it took three; a
/// write's row statements travel with its log record, and its `COMMIT` with them. A failure
/// among them — the commit's own too — is still told as itself, and nothing of a failed write is
/// committed.
@Suite("PostgreSQL: statements sent together", .serialized, .timeLimit(.minutes(5)))
struct PostgresPipelinedStatementsTests {
    static let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)

    @Test("A point write (one message appended to a stored chat) takes three round trips: start; the message's row with the list's tail; rows, the log record and the commit")
    func pointWriteRoundTrips() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let configuration = PostgresBackend.Configuration(schema: PostgresStoreTests.schema())
        let backend = try await PostgresBackend.connect(url: url, configuration: configuration)
        let store = try await Store(backend: backend, schema: Self.schema, followInterval: nil)
        try await PostgresPlannedQueryTests.fill(store, chats: 2)
        let before = backend.statementCount
        try await store.write { try Message(id: "new", text: "p", author: .id("u1"), chat: .id("c1")).save(to: &$0) }
        #expect(backend.statementCount - before == 3)
        #expect(try await store.read { Chat.query("c1", in: $0).with(\.$messages).resolve()?.messages?.last?.id } == "new")
        try await store.close()
    }

    @Test("Writes whose reads are sent ahead (messages moved between chats, appended to several, saved twice) leave the lists a SQLite store leaves")
    func readsSentAheadAnswerAsStorage() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let backend = try await PostgresBackend.connect(url: url, configuration: PostgresBackend.Configuration(schema: PostgresStoreTests.schema()))
        let postgres = try await Store(backend: backend, schema: Self.schema, followInterval: nil)
        let harness = try StoreHarness(.sqlite)
        defer { harness.remove() }
        let sqlite = try await harness.open(schema: Self.schema)
        var random = SeededGenerator(seed: 28)
        for store in [postgres, sqlite] { try await PostgresPlannedQueryTests.fill(store, chats: 3) }
        // Each write moves or appends a few messages: their old rows and the lists' tails are
        // read before the delta (on PostgreSQL, sent ahead together).
        for round in 0..<12 {
            let moves = (0..<3).map { _ in (message: "m\(Int.random(in: 0..<3, using: &random))-\(Int.random(in: 0..<5, using: &random))", chat: "c\(Int.random(in: 0..<3, using: &random))") }
            let fresh = (0..<2).map { index in (message: "n\(round)-\(index)", chat: "c\(Int.random(in: 0..<3, using: &random))") }
            // A new user joins a chat: the chat's list of users is appended to as well.
            let joining = (user: "w\(round)", chat: "c\(Int.random(in: 0..<3, using: &random))")
            for store in [postgres, sqlite] {
                try await store.write { context in
                    for (message, chat) in moves + fresh + fresh.prefix(1) {
                        try Message(id: message, text: "r\(round)", author: .id("u0"), chat: .id(chat)).save(to: &context)
                    }
                    try User(id: joining.user, name: "W", chats: .ids([joining.chat])).save(to: &context)
                }
            }
        }
        for chat in ["c0", "c1", "c2"] {
            let stored = try await postgres.read { $0.ids(of: chat, \Chat.$messages) }
            #expect(stored == (try await sqlite.read { $0.ids(of: chat, \Chat.$messages) }), "\(chat)")
            #expect(!stored.isEmpty)
            let users = try await postgres.read { $0.ids(of: chat, \Chat.$users) }
            #expect(users == (try await sqlite.read { $0.ids(of: chat, \Chat.$users) }), "\(chat)")
        }
        try await postgres.read { try $0.checkInvariants() }
        try await postgres.close()
        try await sqlite.close()
    }

    @Test("Random writes through a PostgreSQL store (reads sent ahead, commits sent with the rows) leave what a plain context holds, in storage and after reopening")
    func randomWrites() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        await propertyCheck(count: 4, input: Gen.int(in: 0...100_000).array(of: 1...60)) { codes in
            let configuration = PostgresBackend.Configuration(schema: PostgresStoreTests.schema())
            let storage = { try PostgresBackend.open(url: url, configuration: configuration) }
            // Without a row cache: every read of a write goes to the server (the dumps between
            // writes would otherwise leave the cache holding every row).
            await StoreRandomWritesPropertyTests.check(codes, open: { try await Store(backend: storage(), schema: $0, cacheLimit: 0) }, storage: storage)
        }
    }

    @Test("Two stores on one PostgreSQL schema, each with its row cache, write at random in turn; after each catch-up both read what the database holds")
    func twoStoresRandomWrites() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        await propertyCheck(count: 4, input: Gen.int(in: 0...100_000).array(of: 1...50)) { codes in
            let configuration = PostgresBackend.Configuration(schema: PostgresStoreTests.schema())
            let storage = { try PostgresBackend.open(url: url, configuration: configuration) }
            await TwoStoresRandomWritesPropertyTests.check(codes, open: { try await Store(backend: storage(), schema: $0, followInterval: nil) }, storage: storage)
        }
    }

    @Test("A write waiting for the writers' lock past the busy timeout fails with storeBusy; the next write commits")
    func lockTimeoutToldAsItself() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let configuration = PostgresBackend.Configuration(schema: PostgresStoreTests.schema(), busyTimeout: .seconds(1))
        let holder = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: Self.schema, followInterval: nil)
        let waiter = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: Self.schema, followInterval: nil)
        try await waiter.write { try Chat(id: "c").save(to: &$0) }
        // The holder keeps the writers' lock (its closure runs once it has it) until the waiter
        // has given up, at most 30 seconds.
        let locked = Flag(), released = Flag()
        let held = Task {
            try await holder.write { context in
                try Chat(id: "held").save(to: &context)
                locked.value.store(true, ordering: .releasing)
                let start = ContinuousClock.now
                while !released.value.load(ordering: .acquiring), ContinuousClock.now - start < .seconds(30) {
                    Thread.sleep(forTimeInterval: 0.02)
                }
            }
        }
        try await waitUntil(seconds: 10) { locked.value.load(ordering: .acquiring) }
        let (code, text) = await PostgresHardeningTests.code { try await waiter.write { try Chat(id: "blocked").save(to: &$0) } }
        released.value.store(true, ordering: .releasing)
        #expect(code == .storeBusy, "\(text)")
        try await held.value
        try await waiter.write { try Chat(id: "after").save(to: &$0) }
        #expect(try await waiter.read { [$0.entity(Chat.self, id: "held"), $0.entity(Chat.self, id: "blocked"), $0.entity(Chat.self, id: "after")].map { $0 != nil } } == [true, false, true])
        try await holder.close()
        try await waiter.close()
    }

    @Test("A row the server refuses fails the write with that refusal, nothing of the write is committed, and the next write commits")
    func refusedRowFailsTheWrite() async throws {
        // Every entity table refuses the id "bad".
        try await Self.expectRefusal(of: "bad") { url, schema in
            """
            psql '\(url)' -qc "DO \\$\\$ DECLARE t text; BEGIN FOR t IN SELECT table_name FROM information_schema.tables \
            WHERE table_schema = '\(schema)' AND table_name ~ '^e[0-9]+$' LOOP \
            EXECUTE format('ALTER TABLE %I.%I ADD CONSTRAINT relata_test_no_bad CHECK (id <> ''bad'')', '\(schema)', t); END LOOP; END \\$\\$"
            """
        }
    }

    @Test("A commit the server refuses at COMMIT (a deferred check) fails the write, nothing of it is committed, and the next write commits")
    func refusedCommitFailsTheWrite() async throws {
        // Every entity table refuses the id "late", checked only when the transaction commits.
        try await Self.expectRefusal(of: "late") { url, schema in
            """
            psql '\(url)' -qc "CREATE FUNCTION \(schema).no_late() RETURNS trigger LANGUAGE plpgsql AS \\$\\$ BEGIN \
            IF NEW.id = 'late' THEN RAISE EXCEPTION 'late refused at commit' USING ERRCODE = '23514'; END IF; RETURN NULL; END \\$\\$; \
            DO \\$\\$ DECLARE t text; BEGIN FOR t IN SELECT table_name FROM information_schema.tables \
            WHERE table_schema = '\(schema)' AND table_name ~ '^e[0-9]+$' LOOP \
            EXECUTE format('CREATE CONSTRAINT TRIGGER relata_test_late AFTER INSERT ON %I.%I DEFERRABLE INITIALLY DEFERRED \
            FOR EACH ROW EXECUTE FUNCTION %I.no_late()', '\(schema)', t, '\(schema)'); END LOOP; END \\$\\$"
            """
        }
    }

    /// Opens a store with one chat on a new schema, runs the `psql` command `refusing` makes (for
    /// the server's URL and the schema) so that the server refuses a message with id `id` (a
    /// check violation, SQLSTATE 23514), then writes a chat and that message: the write fails
    /// with the refusal itself, nothing of it is committed or published, and the next write commits.
    static func expectRefusal(of id: String, refusing: (_ url: String, _ schema: String) -> String) async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let schema = PostgresStoreTests.schema()
        let backend = try await PostgresBackend.connect(url: url, configuration: PostgresBackend.Configuration(schema: schema))
        let store = try await Store(backend: backend, schema: Self.schema, followInterval: nil)
        try await PostgresPlannedQueryTests.fill(store, chats: 1)
        #expect(try ShellCommand.run(refusing(url, schema)) == 0)
        let sequence = store.sequence
        let (code, text) = await PostgresHardeningTests.code {
            try await store.write { context in
                try Chat(id: "kept-out").save(to: &context)
                try Message(id: id, text: "refused", author: .id("u0"), chat: .id("c0")).save(to: &context)
            }
        }
        #expect(code == .storageFailed)
        #expect(text.contains("SQLSTATE 23514"), "the refusal itself (a check violation), not the statements after it: \(text)")
        #expect(store.sequence == sequence, "no commit published")
        let fresh = try await Store(backend: PostgresBackend.connect(url: url, configuration: PostgresBackend.Configuration(schema: schema)), schema: Self.schema, followInterval: nil)
        #expect(try await fresh.read { [$0.entity(Chat.self, id: "kept-out") != nil, $0.entity(Message.self, id: id) != nil, $0.entity(Chat.self, id: "c0") != nil] } == [false, false, true])
        try await store.write { try Chat(id: "after").save(to: &$0) }
        #expect(try await fresh.read { $0.entity(Chat.self, id: "after") != nil })
        try await fresh.close()
        try await store.close()
    }

    final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }
}
