import Foundation
import Relata
@testable import RelataCore
import Synchronization
import Testing

/// What a write's closure may do with its context — keep a copy, assign a copy kept from an
/// earlier write, replace it, throw midway — and what readers see meanwhile. After each write the
/// published state, the store's second copy and the store reopened must agree.
@Suite("Store: the write path")
struct StoreWritePathTests {
    typealias Large = StoreLargeWriteTests

    static func users(_ context: Context) -> [String] {
        context.ids(of: User.self).sorted()
    }

    /// The published state, the caught-up spare and the reopened store agree; returns the reopened store.
    @discardableResult
    static func expectAgreesAndReopens(_ store: Store, _ harness: StoreHarness, _ step: String) async throws -> Store {
        try await Large.expectCopiesAgree(store, step)
        let published = Large.dumped(store.context)
        try await store.close()
        let reopened = try await harness.open()
        #expect(Large.dumped(reopened.context) == published, "after \(step): the reopened store")
        return reopened
    }

    @Test("A context kept from an earlier write and assigned back after another commit is refused, typed, and writes nothing", arguments: BackendKind.allCases)
    func escapedContextWrittenBack(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        let escaped = try await store.write { context in
            try User(id: "a", name: "A").save(to: &context)
            return context
        }
        try await store.write { context in try User(id: "x", name: "X").save(to: &context) }
        // The kept context answers as of its write: the users a later commit changed cannot be
        // read as of it, so the write-back fails, typed, and writes nothing.
        let error = await #expect(throws: RelataError.self) {
            try await store.write { context in
                var copy = escaped
                try User(id: "b", name: "B").save(to: &copy)
                context = copy
            }
        }
        #expect(error?.code == .staleSnapshot)
        #expect(Self.users(store.context) == ["a", "x"])
    }

    @Test("A copy that escaped a write stops tracking when it is next mutated")
    func escapedCopyStopsTracking() async throws {
        let store = try await Store.inMemory(entities: User.self, Chat.self)
        var escaped = try await store.write { context in
            try User(id: "a", name: "A").save(to: &context)
            return context
        }
        #expect(escaped.table(User.self)?.dirty != nil, "it still holds the write's marks")
        try User(id: "b", name: "B").save(to: &escaped)
        #expect(escaped.storage.tracker == nil)
        #expect(escaped.table(User.self)?.dirty == nil, "mutating it after the write marks nothing")
        try Chat(id: "c", users: .ids(["a"])).save(to: &escaped)
        #expect(escaped.table(Chat.self)?.dirty == nil, "nor does a table made after the write")
        #expect(store.context.table(User.self)?.dirty == nil, "the published state does not track")
    }

    @Test("A closure that replaces the context, from a fresh one or a copy of its own, persists what differs", arguments: BackendKind.allCases)
    func replacedContext(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        var store = try await harness.open()
        try await store.write { context in
            for j in 0..<40 { try Large.message(j).save(to: &context) }
        }
        try await store.write { context in
            // A copy of its own, mutated and assigned back: still this write's tracked changes.
            var copy = context
            try Message.delete(id: "m3", from: &copy)
            try Large.message(41).save(to: &copy)
            context = copy
        }
        store = try await Self.expectAgreesAndReopens(store, harness, "a copy of its own")
        #expect(store.context.entity(Message.self, id: "m3") == nil)
        #expect(store.context.entity(Message.self, id: "m41") != nil)
        try await store.write { context in
            var fresh = Context()
            try Large.message(7).save(to: &fresh)
            context = fresh
        }
        #expect(store.context.ids(of: Message.self) == ["m7"])
        let reopened = try await Self.expectAgreesAndReopens(store, harness, "a fresh context")
        #expect(reopened.context.ids(of: Message.self) == ["m7"])
        #expect(reopened.context.ids(of: "c7", \Chat.$messages) == ["m7"])
    }

    @Test("A closure that throws midway leaves the state, the second copy and the storage as before", arguments: BackendKind.allCases)
    func throwingClosure(kind: BackendKind) async throws {
        struct Midway: Error {}
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        try await store.write { context in
            for user in Large.users { try User(id: user, name: "name \(user)").save(to: &context) }
            for j in 0..<600 { try Large.message(j).save(to: &context) }
        }
        let before = Large.dumped(store.context)
        await #expect(throws: Midway.self) {
            try await store.write { context in
                for j in 600..<900 { try Large.message(j).save(to: &context) }
                try Message.delete(id: "m10", from: &context)
                try Chat.delete(id: "c3", from: &context)
                try context.relate(EntityReference(User.self, id: "u1"), .owns, EntityReference(Message.self, id: "m20"))
                throw Midway()
            }
        }
        #expect(Large.dumped(store.context) == before)
        #expect(Large.dumped(try loadedWhole(store.writer.backend, schema: store.schema)) == before, "storage is unchanged")
        try await store.write { context in try Large.message(900).save(to: &context) }
        let reopened = try await Self.expectAgreesAndReopens(store, harness, "a write after the throwing one")
        #expect(reopened.context.entity(Message.self, id: "m900") != nil)
        #expect(reopened.context.entity(Message.self, id: "m600") == nil)
        #expect(reopened.context.entity(Message.self, id: "m10") != nil)
    }

    @Test("Two messages saved again to the chat they are in and others appended to it, in one write: each appended one is stored at its place, and the next append follows", arguments: BackendKind.allCases)
    func appendsBesideMessagesThatStay(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        try await PostgresPlannedQueryTests.fill(store, chats: 3)
        // m0-0 and m0-2 stay in c0 (their list is read so that they keep their places, once for
        // both); m2-1 moves in from c2 and n0 is new, both appended before that read.
        try await store.write { context in
            for (message, chat) in [("m2-1", "c0"), ("m0-0", "c0"), ("m0-2", "c0"), ("n0", "c0")] {
                try Message(id: message, text: "again", author: .id("u0"), chat: .id(chat)).save(to: &context)
            }
        }
        let expected = ["m0-0", "m0-1", "m0-2", "m0-3", "m0-4", "m2-1", "n0"]
        #expect(try await store.read { $0.ids(of: "c0", \Chat.$messages) } == expected)
        // Appending reads the stored tail: every link in the list has its position.
        try await store.write { try Message(id: "n1", text: "next", author: .id("u0"), chat: .id("c0")).save(to: &$0) }
        #expect(try await store.read { $0.ids(of: "c0", \Chat.$messages) } == expected + ["n1"])
        #expect(try await store.read { $0.ids(of: "c2", \Chat.$messages) } == ["m2-0", "m2-2", "m2-3", "m2-4"])
        _ = try await Self.expectAgreesAndReopens(store, harness, "after the appends")
    }

    @Test("A reader never waits for a write: it gets the last committed state at once", arguments: BackendKind.allCases)
    func readerNeverWaits(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        try await store.write { context in
            for j in 0..<600 { try Large.message(j).save(to: &context) }
        }
        let seen = Mutex<Int?>(nil)
        try await store.write { context in
            for j in 600..<700 { try Large.message(j).save(to: &context) }
            // A reader on another thread, while this closure runs and holds the writer.
            Thread { seen.withLock { $0 = store.context.count(of: Message.self) } }.start()
            let deadline = ContinuousClock.now + .seconds(20)
            while seen.withLock({ $0 }) == nil, ContinuousClock.now < deadline { usleep(1_000) }
        }
        #expect(seen.withLock { $0 } == 600, "the reader got the state before this write, without waiting for it")
        #expect(store.context.count(of: Message.self) == 700)
        try await Large.expectCopiesAgree(store, "the write read beside")
    }

    @Test("A reader holding a snapshot keeps it whole while later writes run")
    func heldSnapshot() async throws {
        let store = try await Store.inMemory(entities: User.self, Chat.self, Message.self, Attachment.self)
        try await store.write { context in
            for j in 0..<100 { try Large.message(j).save(to: &context) }
        }
        let held = store.context
        let text = Large.dumped(held)
        for round in 0..<4 {
            try await store.write { context in
                for j in 0..<50 { try Large.message(100 + round * 50 + j, chat: j).save(to: &context) }
                try Message.delete(id: "m\(round)", from: &context)
            }
        }
        #expect(Large.dumped(held) == text, "the held snapshot never changes")
        #expect(store.context.count(of: Message.self) == 296)
        try await Large.expectCopiesAgree(store, "writes beside a held snapshot")
    }
}

@Suite("Store: incomplete data")
struct StoreIncompleteDataTests {
    @Test("Links to ids with no entity, and links of a source with no entity, are kept and persisted", arguments: BackendKind.allCases)
    func incompleteData(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        try await store.write { context in
            try Chat(id: "c", users: .ids(["u9"])).save(to: &context)
            try Message(id: "m", text: "early", author: .id("u9"), chat: .id("c")).save(to: &context)
        }
        try await store.set(\Chat.$users, of: "c9", to: .ids(["u1"]))
        try await store.close()
        let reopened = try await harness.open()
        let context = reopened.context
        #expect(context.entity(User.self, id: "u9") == nil)
        #expect(context.ids(of: "c", \Chat.$users) == ["u9"])
        #expect(context.ids(of: "u9", \User.$chats) == ["c"], "the inverse side is kept too")
        #expect(context.ids(of: "m", \Message.$author) == ["u9"])
        #expect(context.entity(Chat.self, id: "c9") == nil)
        #expect(context.ids(of: "c9", \Chat.$users) == ["u1"])
        try context.checkInvariants()
        // The author arrives later: the link is simply there.
        try await reopened.save(User(id: "u9", name: "Nine"))
        let message = try await reopened.read { Message.query("m", in: $0).with(\.$author).resolve() }
        #expect(message?.author?.name == "Nine")
    }
}
