import Foundation
import Relata
import Testing

/// The change log names the lists of sources a commit changed, so other stores know which to
/// read again: the old and the new target of a to-one link that moved, the target whose list a
/// source moved in, the targets of to-many link rows.
@Suite("Change log: targets whose sources changed")
struct ChangeLogTargetTests {
    static let message = Message.storedTypeName

    /// The targets the newest log record of `backend` names, as `relation target`.
    static func newestTargets(_ backend: InMemoryBackend) throws -> Set<String> {
        Set(try newestRecord(backend).linkTargets.map { "\($0.type == message ? "" : $0.type + ".")\($0.relation) \($0.target)" })
    }

    /// The newest log record of `backend`.
    static func newestRecord(_ backend: InMemoryBackend) throws -> ChangeLogRecord {
        try backend.read { reader in
            let entry = try #require(try reader.logEntries(after: try reader.logBounds().last - 1).first)
            return try StoredChangeLogRecord(decoding: try #require(entry.record)).record
        }
    }

    /// A store over a new in-memory backend, holding user u1 and `message` (by u1), saved in one write.
    static func store(holding message: Message) async throws -> (InMemoryBackend, Store) {
        let backend = InMemoryBackend()
        let store = try await Store(backend: backend, schema: StoreHarness.schema)
        try await store.write { context in
            try User(id: "u1", name: "A").save(to: &context)
            try message.save(to: &context)
        }
        return (backend, store)
    }

    @Test("A to-one link that moves names its old and its new target; a change of the payload alone names none")
    func movedToOne() async throws {
        let backend = InMemoryBackend()
        let store = try await Store(backend: backend, schema: StoreHarness.schema)
        try await store.write { context in
            for id in ["u1", "u2"] { try User(id: id, name: id).save(to: &context) }
            for id in ["c1", "c2"] { try Chat(id: id).save(to: &context) }
            try Message(id: "m", text: "a", author: .id("u1"), chat: .id("c1")).save(to: &context)
            try Message(id: "n", text: "b", author: .id("u1"), chat: .id("c2")).save(to: &context)
        }
        #expect(try Self.newestTargets(backend).isSuperset(of: ["author u1", "chat c1", "chat c2"]))
        try await store.write { try Message(id: "m", text: "a", author: .id("u2"), chat: .id("c2")).save(to: &$0) }
        #expect(try Self.newestTargets(backend) == ["author u1", "author u2", "chat c1", "chat c2"])
        try await store.write { try Message(id: "m", text: "changed", author: .id("u2"), chat: .id("c2")).save(to: &$0) }
        #expect(try Self.newestTargets(backend).isEmpty, "the same links: no list of sources changed")
        try await store.write { try Chat(id: "c2").move("m", in: \.$messages, to: 0, in: &$0) }
        let afterMove = try Self.newestTargets(backend)
        #expect(afterMove == ["chat c2"], "m moved in c2's list, kept in its row: \(afterMove)")
        try await store.write { try Message.delete(id: "m", from: &$0) }
        #expect(try Self.newestTargets(backend) == ["author u2", "chat c2"], "an erased source leaves its targets' lists")
        try await store.close()
    }

    @Test("To-many link rows written or removed name their targets")
    func toManyTargets() async throws {
        let (backend, store) = try await Self.store(holding: Message(id: "m", text: "a", author: .id("u1"), chat: .id("c"), viewedBy: .ids(["u1"])))
        #expect(try Self.newestTargets(backend).contains("viewedBy u1"))
        try await store.write { try Message(id: "m", text: "a", author: .id("u1"), chat: .id("c"), viewedBy: .ids([])).save(to: &$0) }
        #expect(try Self.newestTargets(backend) == ["viewedBy u1"])
        try await store.close()
    }

    @Test("A write that erases only what storage never held commits nothing; a row left with neither entity nor link is deleted")
    func vanishedRows() async throws {
        // The attachment is never saved: its row holds only its link to m (its side keeps the pair).
        let (backend, store) = try await Self.store(holding: Message(id: "m", text: "a", author: .id("u1"), chat: .id("c"), attachment: .id("a")))
        let attachment = EntityKey(type: Attachment.storedTypeName, id: "a")
        #expect(try backend.read { try $0.fetchEntities([attachment]) }.count == 1, "a's row holds its link to m")
        let before = try backend.read { try $0.logBounds() }.last
        try await store.write { context in
            try Message.delete(id: "never", from: &context)
            try Message(id: "n", text: "b", author: .id("u1"), chat: .id("c")).save(to: &context)
            try Message.delete(id: "n", from: &context)
        }
        #expect(try backend.read { try $0.logBounds() }.last == before, "nothing storage held changed: no commit")
        try await store.write { try Message.delete(id: "m", from: &$0) }
        #expect(try backend.read { try $0.logBounds() }.last == before + 1)
        #expect(try backend.read { try $0.fetchEntities([attachment]) }.isEmpty, "a's row kept neither entity nor link")
        try await store.close()
    }

    @Test("A vanished row's id is matched byte for byte: erasing an id in another Unicode form names no row storage never held")
    func vanishedRowsByteExact() async throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let (backend, store) = try await Self.store(holding: Message(id: "m", text: "a", author: .id("u1"), chat: .id("c"), attachment: .id(composed)))
        try await store.write { context in
            try Message.delete(id: "m", from: &context)
            try Attachment.delete(id: decomposed, from: &context)
        }
        let erased = try Self.newestRecord(backend).entities.filter { $0.type == Attachment.storedTypeName }.map { Array($0.id.utf8) }
        #expect(erased == [Array(composed.utf8)], "only the row storage held, in its own bytes")
        try await store.close()
    }

    @Test("Records read back with their targets; a record without targets (as format 6 wrote them) reads back without")
    func encoding() throws {
        var record = ChangeLogRecord()
        record.entities = [EntityKey(type: "T", id: "1")]
        #expect(try ChangeLogRecord(decoding: record.encoded()) == record, "no targets: the format 6 form")
        record.linkTargets = [LinkTargetKey(type: "T", relation: "r", target: "x"), LinkTargetKey(type: "T", relation: "r", target: "y")]
        let decoded = try ChangeLogRecord(decoding: record.encoded())
        #expect(Set(decoded.linkTargets) == Set(record.linkTargets) && decoded.entities == record.entities)
        #expect(throws: RelataError.self) { try ChangeLogRecord(decoding: record.encoded() + Data([7])) }
    }
}
