import Foundation
import GRDB
import Relata
@testable import RelataCore
import RelataPostgres
@testable import RelataSQLite
import Testing

/// `@Unique`: a save that would give two entities the same values hands the other entity to the
/// declaration's resolver first — `.throw` refuses it, `.upsert` erases the other, a resolver of
/// one's own does what it says — in memory and in every store, where the other entities are
/// found through the index in SQL.
@Suite("Unique index: collisions resolved on save, in memory and in stores")
struct UniqueIndexTests {
    @EntityModel
    struct Account: Codable, Equatable {
        @Unique<Self>(\.email, collisions: .throw) private var uniqueEmail
        @Unique<Self>(\.handle) private var uniqueHandle
        @Unique<Self>(\.isCurrent, collisions: .makeCurrent) private var current
        @Unique<Self>(\.team, \.seat, collisions: .throw) private var seatIndex
        @Unique<Self>(\.phone, collisions: .ignoreNil) private var uniquePhone

        let id: String
        var email: String
        var handle: String
        var isCurrent: Bool = false
        var team: Int = 0
        var seat: Int
        var phone: String?
    }

    static func account(_ i: Int) -> Account {
        Account(id: "a\(i)", email: "a\(i)@example.com", handle: "@a\(i)", seat: i)
    }

    @Test("In memory: .throw refuses with a typed error naming the type, the entity and the index; the context is unchanged")
    func throwsInMemory() throws {
        var context = Context()
        try Self.account(1).save(to: &context)
        var twin = Self.account(2)
        twin.email = "a1@example.com"
        let before = context
        let error = try #require(throws: RelataError.self) { try twin.save(to: &context) }
        #expect(error.code == .uniqueViolation && error.entityType.hasSuffix("Account") && error.id == "a2")
        #expect(error.message.contains("\"a1\"") && error.message.contains("email"), "\(error.message)")
        #expect(Account.query("a2", in: context).resolve() == nil && context.count(of: Account.self) == before.count(of: Account.self))
        // Saving an entity again with its own values is no collision.
        var same = Self.account(1)
        same.seat = 1
        try same.save(to: &context)
    }

    @Test("In memory: .upsert (the default) erases the other holder; a compound index collides only on every value")
    func upsertsAndCompounds() throws {
        var context = Context()
        for i in 0..<3 { try Self.account(i).save(to: &context) }
        var taker = Self.account(3)
        taker.handle = "@a1"
        try taker.save(to: &context)
        #expect(Account.query("a1", in: context).resolve() == nil, "the holder of @a1 is erased")
        #expect(Account.query("a3", in: context).resolve()?.handle == "@a1")
        var sameTeam = Self.account(4)
        sameTeam.seat = 0  // team 0, seat 0 is a0's; team 1, seat 0 is free
        sameTeam.team = 1
        try sameTeam.save(to: &context)
        sameTeam.team = 0
        #expect(throws: RelataError.self) { try sameTeam.save(to: &context) }
        #expect(Account.query("a4", in: context).resolve()?.team == 1)
    }

    @Test("In memory: a resolver of one's own decides — one current account; nil phones repeat")
    func customResolvers() throws {
        var context = Context()
        for i in 0..<4 { try Self.account(i).save(to: &context) }
        for i in [2, 0, 3] {
            var account = try context.find(Account.self, id: "a\(i)")
            account.isCurrent = true
            try account.save(to: &context)
            let current = Account.query(in: context).resolve().filter(\.isCurrent).map(\.id)
            #expect(current == ["a\(i)"])
        }
        var phone = Self.account(1)
        phone.phone = "555"
        try phone.save(to: &context)
        var other = Self.account(2)
        other.phone = "555"
        #expect(throws: RelataError.self) { try other.save(to: &context) }
        #expect(Account.query(in: context).resolve().count { $0.phone == nil } == 3)
    }

    /// Saves that collide with entities stored by earlier writes (not read by the write's
    /// context), and with the write's own saves.
    static func checkStore(_ store: Store) async throws {
        try await store.write { context in for i in 0..<200 { try Self.account(i).save(to: &context) } }
        // .throw: the write fails whole; nothing of it is stored.
        await #expect(throws: RelataError.self) {
            try await store.write { context in
                try Self.account(500).save(to: &context)
                var twin = Self.account(501)
                twin.email = "a150@example.com"
                try twin.save(to: &context)
            }
        }
        #expect(try await store.read { Account.query("a500", in: $0).resolve() } == nil)
        // .upsert: the stored holder is erased; then the write's own holder is.
        try await store.write { context in
            var taker = Self.account(600)
            taker.handle = "@a120"
            try taker.save(to: &context)
            var second = Self.account(601)
            second.handle = "@a120"
            try second.save(to: &context)
        }
        let holders = try await store.read { Account.query(in: $0).filter(\.handle == "@a120").resolve().map(\.id) }
        #expect(holders == ["a601"])
        #expect(try await store.read { [Account.query("a120", in: $0).resolve(), Account.query("a600", in: $0).resolve()] } == [nil, nil])
        // One current account across writes.
        for i in [7, 90, 7, 199] {
            try await store.write { context in
                var account = try context.find(Account.self, id: "a\(i)")
                account.isCurrent = true
                try account.save(to: &context)
            }
            let current = try await store.read { Account.query(in: $0).filter(\.isCurrent == true).resolve().map(\.id) }
            #expect(current == ["a\(i)"])
        }
        try await store.close()
    }

    @Test("In a store: collisions with stored entities and with the write's own saves", arguments: BackendKind.allCases)
    func store(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        try await Self.checkStore(try await kind.open(harness.backend(), schema: EntitySchema(Account.self)))
    }

    @Test("Random saves, re-saves and erasures in one store write resolve collisions as a context in memory does", arguments: BackendKind.allCases)
    func randomWrite(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await kind.open(harness.backend(), schema: EntitySchema(Account.self))
        // A third without a phone (`nil`, which `.ignoreNil` lets repeat): looked up through
        // `IS NULL` and the write's index, as the other values are.
        func account(_ i: Int) -> Account {
            var account = Self.account(i)
            account.phone = i % 3 == 0 ? nil : "p\(i)"
            return account
        }
        var memory = Context()
        // Stored by an earlier write: the collisions found in storage.
        for i in 0..<40 { try account(i).save(to: &memory) }
        try await store.write { context in for i in 0..<40 { try account(i).save(to: &context) } }
        // Handles (`.upsert`) and currency (`.makeCurrent`) collide often: the other holder is
        // stored, or saved (or re-saved, or erased) earlier in the same write.
        var random = SeededGenerator(seed: 17)
        var steps: [(id: Int, handle: Int, current: Bool, erase: Bool)] = []
        for _ in 0..<400 {
            steps.append((Int.random(in: 0..<120, using: &random), Int.random(in: 0..<60, using: &random),
                          Int.random(in: 0..<8, using: &random) == 0, Int.random(in: 0..<10, using: &random) == 0))
        }
        func apply(_ context: inout Context) throws {
            for step in steps {
                if step.erase {
                    try Account.delete(id: "a\(step.id)", from: &context)
                    continue
                }
                var account = account(step.id)
                account.handle = "@h\(step.handle)"
                account.isCurrent = step.current
                try account.save(to: &context)
            }
        }
        try apply(&memory)
        try await store.write { context in try apply(&context) }
        let expected = Account.query(in: memory).sorted(by: \.id).resolve()
        let stored = try await store.read { Account.query(in: $0).sorted(by: \.id).resolve() }
        #expect(stored == expected)
        #expect(Set(stored.map(\.handle)).count == stored.count, "handles stay unique")
        #expect(stored.count { $0.isCurrent } <= 1)
        try await store.close()
    }

    /// An optional unique property: `nil` collides with `nil` as any value does (a hash index
    /// in memory keeps `nil` too); `.upsert` erases the other holder.
    @EntityModel
    struct Badge: Codable, Equatable {
        @Unique<Self>(\.code) private var uniqueCode

        let id: String
        var code: String?
        var round: Int
    }

    /// Rounds of random saves and erasures of badges — a nil code often — each round one write
    /// in `store` and the same operations in a context in memory: the badges stored are the
    /// context's.
    static func checkNilValues(_ store: Store) async throws {
        var memory = Context()
        var random = SeededGenerator(seed: 23)
        for round in 0..<5 {
            var steps: [(id: Int, code: Int?, erase: Bool)] = []
            for _ in 0..<60 {
                let code = Int.random(in: 0..<3, using: &random) == 0 ? nil : Int.random(in: 0..<25, using: &random)
                steps.append((Int.random(in: 0..<80, using: &random), code, Int.random(in: 0..<12, using: &random) == 0))
            }
            func apply(_ context: inout Context) throws {
                for step in steps {
                    if step.erase {
                        try Badge.delete(id: "b\(step.id)", from: &context)
                    } else {
                        try Badge(id: "b\(step.id)", code: step.code.map { "k\($0)" }, round: round).save(to: &context)
                    }
                }
            }
            try apply(&memory)
            try await store.write { try apply(&$0) }
            let expected = Badge.query(in: memory).sorted(by: \.id).resolve()
            let stored = try await store.read { Badge.query(in: $0).sorted(by: \.id).resolve() }
            #expect(stored == expected, "round \(round)")
            #expect(stored.count { $0.code == nil } == 1, "one badge holds nil")
        }
        try await store.close()
    }

    @Test("Nil and repeated values of an optional @Unique in store writes resolve as in memory", arguments: BackendKind.allCases)
    func nilValues(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        try await Self.checkNilValues(try await kind.open(harness.backend(), schema: EntitySchema(Badge.self)))
    }

    @Test("On PostgreSQL, nil and repeated values of an optional @Unique in store writes resolve as in memory")
    func nilValuesPostgres() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let backend = try await PostgresBackend.connect(url: url, configuration: .init(schema: PostgresStoreTests.schema()))
        try await Self.checkNilValues(try await Store(backend: backend, schema: EntitySchema(Badge.self), followInterval: nil))
    }

    @Test("In a store on PostgreSQL: collisions with stored entities and with the write's own saves")
    func storePostgres() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let backend = try await PostgresBackend.connect(url: url, configuration: .init(schema: PostgresStoreTests.schema()))
        try await Self.checkStore(try await Store(backend: backend, schema: EntitySchema(Account.self), followInterval: nil))
    }

    @Test("In a SQLite store the holder is found through a SQL index on its columns, not by reading the type")
    func foundThroughTheIndex() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let backend = try SQLiteBackend(path: path)
        let store = try await Store(backend: backend, schema: EntitySchema(Account.self), followInterval: nil)
        try await store.write { context in
            for i in 0..<600 {
                var account = Self.account(i)
                account.phone = i % 2 == 0 ? "p\(i)" : nil
                try account.save(to: &context)
            }
        }
        let before = backend.rowsReadCount
        await #expect(throws: RelataError.self) {
            try await store.write { context in
                var twin = Self.account(5_000)
                twin.email = "a599@example.com"
                try twin.save(to: &context)
            }
        }
        // The e-mail is looked up (the first declaration, which refuses): a few rows, not 600.
        #expect(backend.rowsReadCount - before < 20, "read \(backend.rowsReadCount - before) rows")
        // Accounts without a phone (which `.ignoreNil` lets repeat): each save finds one other
        // holder of nil in a page of rows, not among all 300.
        let beforeNil = backend.rowsReadCount
        try await store.write { context in
            for i in 1_000..<1_005 { try Self.account(i).save(to: &context) }
        }
        #expect(backend.rowsReadCount - beforeNil < 150, "5 saves read \(backend.rowsReadCount - beforeNil) rows")
        #expect(try await store.read { Account.query(in: $0).resolveCount() } == 605)
        try await store.close()
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        // One B-tree per declaration (email, handle, isCurrent, team and seat, phone).
        let indexes = try await queue.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name GLOB 'e*_x_*'")
        }
        #expect(indexes.count == 5 && indexes.allSatisfy { !$0.contains("UNIQUE") }, "\(indexes)")
    }

    @Test("Two stores on one file save the same e-mail at once: one write commits, the other is refused")
    func racingWriters() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await Store(path: path, entities: Account.self)
        let second = try await Store(path: path, entities: Account.self)
        for round in 0..<20 {
            async let a: Bool = Self.tryWrite(first, id: "x\(round)", email: "race\(round)@example.com")
            async let b: Bool = Self.tryWrite(second, id: "y\(round)", email: "race\(round)@example.com")
            let (wroteA, wroteB) = try await (a, b)
            #expect(wroteA != wroteB, "round \(round): exactly one write commits")
            let holders = try await first.read { Account.query(in: $0).filter(\.email == "race\(round)@example.com").resolve() }
            #expect(holders.count == 1)
        }
        try await first.close()
        try await second.close()
    }

    /// Whether `store` saved a new account holding `email` (`false`: refused as a collision).
    static func tryWrite(_ store: Store, id: String, email: String) async throws -> Bool {
        do {
            try await store.write { context in
                try Account(id: id, email: email, handle: "@" + id, seat: Int(id.dropFirst())! + (id.hasPrefix("x") ? 1_000 : 2_000))
                    .save(to: &context)
            }
            return true
        } catch let error as RelataError where error.code == .uniqueViolation {
            return false
        }
    }
}

extension CollisionResolver where Entity == UniqueIndexTests.Account {
    /// The other current account stops being current (SwiftletModel's `updateCurrentUser`).
    static var makeCurrent: Self {
        CollisionResolver { existingId, _, _, context in
            guard var account = Entity.query(existingId, in: context).resolve(), account.isCurrent else { return }
            account.isCurrent = false
            try account.save(to: &context)
        }
    }

    /// Values may repeat as `nil`; others are refused (SwiftletModel's README).
    static var ignoreNil: Self {
        CollisionResolver { existingId, new, indexName, context in
            guard new.phone != nil else { return }
            try CollisionResolver.throw.resolveCollision(existing: existingId, new: new, indexName: indexName, in: &context)
        }
    }
}
