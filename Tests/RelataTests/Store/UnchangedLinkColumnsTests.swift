import Foundation
import Relata
import RelataSQLite
import Testing

/// Saving an entity again over SQLite leaves the to-one columns of the links it kept out of the
/// row's update (SQLite rewrites the index of every column an update sets): what a user reads
/// afterwards, in another store, is every link as the writes left it — kept, moved, cleared.
@Suite("SQLite: an entity saved again keeps, moves and clears its to-one links")
struct UnchangedLinkColumnsTests {
    @Test("Saved again with the same links, moved to another chat and author, its reply cleared: another store reads each as written")
    func savedAgain() async throws {
        let path = ListTailCacheTests.path()
        defer { ListTailCacheTests.remove(path) }
        let store = try await ListTailCacheTests.open(path)
        try await store.write { context in
            for user in ["u1", "u2"] { try User(id: user, name: user).save(to: &context) }
            for chat in ["c1", "c2"] { try Chat(id: chat).save(to: &context) }
            for m in 1...4 {
                try Message(id: "m\(m)", text: "first", author: .id("u1"), chat: .id("c1"), replyTo: m % 2 == 0 ? .id("m1") : .none).save(to: &context)
            }
        }
        // The same author, chat and reply: the links kept, at their places.
        try await store.write { try Message(id: "m2", text: "again", author: .id("u1"), chat: .id("c1"), replyTo: .id("m1")).save(to: &$0) }
        // Another chat and another author: both move.
        try await store.write { try Message(id: "m3", text: "moved", author: .id("u2"), chat: .id("c2")).save(to: &$0) }
        // The same author and chat, the reply cleared.
        try await store.write { try Message(id: "m4", text: "cleared", author: .id("u1"), chat: .id("c1"), replyTo: .null).save(to: &$0) }
        try await store.close()

        let other = try await ListTailCacheTests.open(path)
        try await other.read { context in
            #expect(context.ids(of: "c1", \Chat.$messages) == ["m1", "m2", "m4"])
            #expect(context.ids(of: "c2", \Chat.$messages) == ["m3"])
            #expect(context.entity(Message.self, id: "m2")?.text == "again")
            #expect(context.ids(of: "m2", \Message.$author) == ["u1"] && context.ids(of: "m2", \Message.$chat) == ["c1"])
            #expect(context.ids(of: "m3", \Message.$author) == ["u2"] && context.ids(of: "m3", \Message.$chat) == ["c2"])
            #expect(context.ids(of: "m2", \Message.$replyTo) == ["m1"] && context.ids(of: "m4", \Message.$replyTo) == [])
            #expect(context.ids(of: "m1", \Message.$replies) == ["m2"])
            // The lists of sources, read through the to-one columns' indexes.
            #expect(Set(context.sources(linkingTo: "u1", through: \Message.$author)) == ["m1", "m2", "m4"])
            #expect(context.sources(linkingTo: "u2", through: \Message.$author) == ["m3"])
        }
        // Appended after them all: the places the kept links held are still in order.
        try await ListTailCacheTests.append("m5", to: "c1", in: other)
        #expect(try await other.read { $0.ids(of: "c1", \Chat.$messages) } == ["m1", "m2", "m4", "m5"])
        try await other.close()
    }
}
