import Foundation
import Relata
@testable import RelataCore
import Testing

/// A page of a list (`ids(of:_:page:)`) and a list's count, over storage, read without the rest
/// of the list: what a chat screen needs of a chat with a million messages.
@Suite("List pages")
struct ListPageTests {
    static let pages: [ListPage] = [
        .first(0), .first(1), .first(3), .first(1_000), .last(0), .last(1), .last(7), .last(1_000),
        .range(2..<5), .range(-3..<2), .range(8..<100), .range(500..<600), .first(-1), .last(-4),
    ]

    /// A store with chat c0 of `messages` messages, one moved to the front (so list order is not
    /// id or insertion order), and chat c1 of three.
    static func seeded(messages: Int) async throws -> StoreHarness {
        let harness = try StoreHarness(.sqlite)
        let store = try await Store(backend: harness.backend(), schema: StoreHarness.schema)
        try await store.write { context in
            for c in 0..<2 { try Chat(id: "c\(c)", users: .ids(["u\(c)"])).save(to: &context) }
            for m in 0..<messages { try Message(id: "m\(m)", text: "t\(m)", author: .id("u0"), chat: .id("c0")).save(to: &context) }
            for m in 0..<3 { try Message(id: "n\(m)", text: "n\(m)", author: .id("u1"), chat: .id("c1")).save(to: &context) }
            try Chat(id: "c0").move("m\(messages / 2)", in: \.$messages, to: 0, in: &context)
        }
        try await store.close()
        return harness
    }

    /// A store without a row cache over ``seeded(messages:)`` (the caller removes the harness),
    /// its backend, and chat c0's list as stored.
    static func opened(messages: Int) async throws -> (harness: StoreHarness, backend: SQLiteBackend, store: Store, stored: [String]) {
        let harness = try await seeded(messages: messages)
        let backend = try SQLiteBackend(path: harness.path)
        let store = try await Store(backend: backend, schema: StoreHarness.schema, followInterval: nil, cacheLimit: 0)
        return (harness, backend, store, store.context.ids(of: "c0", \Chat.$messages))
    }

    @Test("Every page is that slice of the whole list: in a plain Context, over storage, and over a list held whole")
    func pagesAreSlices() async throws {
        let harness = try await Self.seeded(messages: 12)
        defer { harness.remove() }
        let store = try await Store(backend: harness.backend(), schema: StoreHarness.schema, followInterval: nil)
        let whole = store.context.ids(of: "c0", \Chat.$messages)
        #expect(whole.count == 12 && whole.first == "m6")
        var plain = Context()
        for id in whole { try Message(id: id, text: "", author: .id("u0"), chat: .id("c0")).save(to: &plain) }
        for page in Self.pages {
            let expected = Array(page.slice(whole))
            #expect(plain.ids(of: "c0", \Chat.$messages, page: page) == expected, "plain Context, \(page)")
            #expect(store.context.ids(of: "c0", \Chat.$messages, page: page) == expected, "over storage, \(page)")
            let held = store.context
            _ = held.ids(of: "c0", \Chat.$messages)
            #expect(held.ids(of: "c0", \Chat.$messages, page: page) == expected, "over a list the context holds, \(page)")
        }
        #expect(store.context.ids(of: "nobody", \Chat.$messages, page: .last(3)).isEmpty)
        #expect(store.context.ids(of: "m0", \Message.$chat, page: .first(1)) == ["c0"], "a to-one relation's page is its target")
        #expect(store.context.storageFailure == nil)
        try await store.close()
    }

    @Test("A page in a write sees the write's own changes: appended, moved, removed")
    func pagesSeeWrites() async throws {
        let harness = try await Self.seeded(messages: 10)
        defer { harness.remove() }
        let store = try await Store(backend: harness.backend(), schema: StoreHarness.schema, followInterval: nil)
        let pages = try await store.write { context -> [[String]] in
            try Message(id: "new", text: "n", author: .id("u0"), chat: .id("c0")).save(to: &context)
            let appended = context.ids(of: "c0", \Chat.$messages, page: .last(2))
            try Chat(id: "c0").move("m9", in: \.$messages, to: 0, in: &context)
            let moved = context.ids(of: "c0", \Chat.$messages, page: .first(2))
            try Message.delete(id: "new", from: &context)
            let removed = context.ids(of: "c0", \Chat.$messages, page: .last(1))
            return [appended, moved, removed, [String(context.count(of: "c0", \Chat.$messages))]]
        }
        #expect(pages == [["m9", "new"], ["m9", "m5"], ["m8"], ["10"]])
        #expect(store.context.ids(of: "c0", \Chat.$messages, page: .first(2)) == ["m9", "m5"], "committed")
        try await store.close()
    }

    @Test("A page or a count of a list is one statement, whatever the list's length, and neither reads the list")
    func pageReadsThePageOnly() async throws {
        var statements: [[Int]] = []
        for messages in [10, 2_000] {
            let harness = try await Self.seeded(messages: messages)
            defer { harness.remove() }
            let backend = try SQLiteBackend(path: harness.path)
            let store = try await Store(backend: backend, schema: StoreHarness.schema, followInterval: nil, cacheLimit: 0)
            let context = store.context
            var before = backend.statementCount
            let rowsBefore = backend.rowsReadCount
            let newest = context.ids(of: "c0", \Chat.$messages, page: .last(3))
            let page = backend.statementCount - before
            #expect(backend.rowsReadCount - rowsBefore == 3, "rows read for a page of 3")
            before = backend.statementCount
            let count = context.count(of: "c0", \Chat.$messages)
            statements.append([page, backend.statementCount - before])
            #expect(newest == (messages - 3..<messages).map { "m\($0)" })
            #expect(count == messages)
            // Neither read the list: a read of the list (one more statement) would have held it.
            before = backend.statementCount
            #expect(context.ids(of: "c0", \Chat.$messages).count == messages)
            #expect(backend.statementCount > before, "the whole list was read only now")
            try await store.close()
        }
        #expect(statements[0] == statements[1], "statements for a page and a count: \(statements)")
    }

    @Test("A new message goes at the end of its chat's list without the list being read, whatever its length")
    func appendWithoutReading() async throws {
        var statements: [Int] = []
        for messages in [10, 2_000] {
            let (harness, backend, store, stored) = try await Self.opened(messages: messages)
            defer { harness.remove() }
            let before = backend.statementCount, rowsBefore = backend.rowsReadCount
            let heldWhole = try await store.write { context in
                try Message(id: "x1", text: "", author: .id("u0"), chat: .id("c0")).save(to: &context)
                try Message(id: "x2", text: "", author: .id("u0"), chat: .id("c0")).save(to: &context)
                let links = context.table(Chat.self)?.existingLinkTable(Chat.relationKey(\Chat.$messages), String.self)
                return links?.loaded.contains("c0")
            }
            statements.append(backend.statementCount - before)
            #expect(heldWhole == false, "the write did not read chat c0's list")
            #expect(backend.rowsReadCount - rowsBefore < 10, "rows read by the write: \(backend.rowsReadCount - rowsBefore)")
            #expect(store.context.ids(of: "c0", \Chat.$messages) == stored + ["x1", "x2"])
            // A list appended to unread, then read in the same write: the stored list with the appended.
            let (appended, list) = try await store.write { context in
                try Message(id: "x3", text: "", author: .id("u0"), chat: .id("c0")).save(to: &context)
                let appended = context.ids(of: "c0", \Chat.$messages, page: .last(2))
                try Message.delete(id: "x1", from: &context)
                return (appended, context.ids(of: "c0", \Chat.$messages))
            }
            #expect(appended == ["x2", "x3"])
            #expect(list == stored + ["x2", "x3"])
            #expect(store.context.ids(of: "c0", \Chat.$messages) == stored + ["x2", "x3"])
            #expect(store.context.count(of: "c0", \Chat.$messages) == messages + 2)
            try store.context.checkInvariants()
            try await store.close()
        }
        #expect(statements[0] == statements[1], "statements of the write: \(statements)")
    }

    @Test("Saving a message again in its own chat keeps its place without the chat's list being read, whatever its length")
    func resaveWithoutReading() async throws {
        var statements: [Int] = []
        for messages in [10, 2_000] {
            let (harness, backend, store, stored) = try await Self.opened(messages: messages)
            defer { harness.remove() }
            let before = backend.statementCount, rowsBefore = backend.rowsReadCount
            // m3 again, as a backend's payload would bring it: same chat, new text.
            try await store.write { context in
                try Message(id: "m3", text: "edited", author: .id("u0"), chat: .id("c0")).save(to: &context)
            }
            statements.append(backend.statementCount - before)
            // (Reading the list, in the write and again for what it held before, read 2 × 2,000 rows.)
            #expect(backend.rowsReadCount - rowsBefore < 10, "rows read by the write: \(backend.rowsReadCount - rowsBefore)")
            #expect(store.context.ids(of: "c0", \Chat.$messages) == stored, "m3 kept its place")
            #expect(store.context.entity(Message.self, id: "m3")?.text == "edited")
            // Saved again, then the list read in the same write; then saved again with a new message after it.
            let (list, page) = try await store.write { context in
                try Message(id: "m3", text: "again", author: .id("u0"), chat: .id("c0")).save(to: &context)
                let list = context.ids(of: "c0", \Chat.$messages)
                try Message(id: "x1", text: "", author: .id("u0"), chat: .id("c0")).save(to: &context)
                try Message(id: "m4", text: "again", author: .id("u0"), chat: .id("c0")).save(to: &context)
                return (list, context.ids(of: "c0", \Chat.$messages, page: .last(2)))
            }
            #expect(list == stored)
            #expect(page == [stored.last!, "x1"])
            let afterMove = try await store.write { context in
                // Moved to the other chat: it leaves c0.
                try Message(id: "m3", text: "moved", author: .id("u0"), chat: .id("c1")).save(to: &context)
                try Message(id: "m5", text: "again", author: .id("u0"), chat: .id("c0")).save(to: &context)
                return context.ids(of: "c1", \Chat.$messages, page: .last(1))
            }
            #expect(afterMove == ["m3"])
            #expect(store.context.ids(of: "c0", \Chat.$messages) == stored.filter { $0 != "m3" } + ["x1"])
            #expect(store.context.ids(of: "c1", \Chat.$messages) == ["n0", "n1", "n2", "m3"])
            try store.context.checkInvariants()
            try await store.close()
        }
        #expect(statements[0] == statements[1], "statements of the write: \(statements)")
    }

    @Test("Saving a message with its relations left as they are (.none) writes its row, its place in its chat kept, without the chat's list being read")
    func partialSaveWithoutReading() async throws {
        for messages in [10, 2_000] {
            let (harness, backend, store, stored) = try await Self.opened(messages: messages)
            defer { harness.remove() }
            let rowsBefore = backend.rowsReadCount
            try await store.write { context in
                try Message(id: "m3", text: "edited", author: .none, chat: .none).save(to: &context)
            }
            #expect(backend.rowsReadCount - rowsBefore < 10, "rows read by the write: \(backend.rowsReadCount - rowsBefore)")
            try await store.close()
            // Read again from storage alone: the row kept its chat and its place in it.
            let reopened = try await Store(backend: SQLiteBackend(path: harness.path), schema: StoreHarness.schema, followInterval: nil, cacheLimit: 0)
            #expect(reopened.context.ids(of: "c0", \Chat.$messages) == stored)
            #expect(reopened.context.ids(of: "c0", \Chat.$messages, page: .range(4..<5)) == [stored[4]])
            let message = reopened.context.entity(Message.self, id: "m3")
            #expect(message?.text == "edited")
            #expect(reopened.context.ids(of: "m3", \Message.$chat, page: .first(1)) == ["c0"])
            try reopened.context.checkInvariants()
            try await reopened.close()
        }
    }

    @Test("Deleting a message, detaching it or moving it to another chat leaves its chat's list unread, whatever its length")
    func removalWithoutReading() async throws {
        for messages in [10, 2_000] {
            let (harness, backend, store, stored) = try await Self.opened(messages: messages)
            defer { harness.remove() }
            var rowsRead: [Int] = []
            func write(_ body: sending @escaping (inout Context) throws -> Void) async throws {
                let before = backend.rowsReadCount
                try await store.write { try body(&$0) }
                rowsRead.append(backend.rowsReadCount - before)
            }
            try await write { try Message.delete(id: "m6", from: &$0) }
            try await write { try Message(id: "m7", text: "", author: .id("u0"), chat: .id("c0")).detach(\.$chat, inverse: \.$messages, in: &$0) }
            // Read first (its chat known), then moved: c0 loses it unread.
            try await write { context in
                #expect(context.entity(Message.self, id: "m8")?.text == "t8")
                try Message(id: "m8", text: "moved", author: .id("u0"), chat: .id("c1")).save(to: &context)
            }
            // Deleted, then saved again in the same chat in one write: at the end, as in a plain Context.
            try await write { context in
                try Message.delete(id: "m1", from: &context)
                try Message(id: "m1", text: "back", author: .id("u0"), chat: .id("c0")).save(to: &context)
            }
            #expect(rowsRead.allSatisfy { $0 < 10 }, "rows read by each write: \(rowsRead)")
            let expected = stored.filter { !["m6", "m7", "m8", "m1"].contains($0) } + ["m1"]
            #expect(store.context.ids(of: "c0", \Chat.$messages) == expected)
            #expect(store.context.count(of: "c0", \Chat.$messages) == messages - 3)
            #expect(store.context.ids(of: "c1", \Chat.$messages) == ["n0", "n1", "n2", "m8"])
            #expect(store.context.entity(Message.self, id: "m6") == nil)
            #expect(store.context.ids(of: "m7", \Message.$chat, page: .first(1)).isEmpty)
            try store.context.checkInvariants()
            try await store.close()
            let reopened = try await Store(backend: SQLiteBackend(path: harness.path), schema: StoreHarness.schema, followInterval: nil)
            #expect(reopened.context.ids(of: "c0", \Chat.$messages) == expected)
            try reopened.context.checkInvariants()
            try await reopened.close()
        }
    }

    @Test("A context answers a page as of its snapshot: a list changed since is refused, typed")
    func pageOnSnapshot() async throws {
        let harness = try await Self.seeded(messages: 5)
        defer { harness.remove() }
        let store = try await Store(backend: harness.backend(), schema: StoreHarness.schema, followInterval: nil, cacheLimit: 0)
        let held = store.context
        #expect(held.ids(of: "c1", \Chat.$messages, page: .last(1)) == ["n2"], "binds the snapshot")
        try await store.write { context in
            try Message(id: "late", text: "l", author: .id("u0"), chat: .id("c0")).save(to: &context)
        }
        #expect(held.ids(of: "c0", \Chat.$messages, page: .last(1)).isEmpty, "changed since: not answered from a later state")
        let failure = try #require(held.storageFailure as? RelataError)
        #expect(failure.code == .staleSnapshot && failure.id == "c0" && failure.relation == "messages")
        #expect(store.context.ids(of: "c0", \Chat.$messages, page: .last(1)) == ["late"], "a new context sees the commit")
        try await store.close()
    }
}
