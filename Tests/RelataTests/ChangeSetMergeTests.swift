import Foundation
import Relata
import Testing

@Suite("ChangeSets: recording and merging concurrent changes")
struct ChangeSetMergeTests {
    static let users = ["1", "2", "3"], chats = ["c", "d"], attachments = ["a"]
    static let messages = (0..<6).map { "m\($0)" } + ["x", "y"]

    static func dumped(_ context: Context) -> String {
        dump(context, users: users, chats: chats, messages: messages, attachments: attachments)
    }

    /// A shared base: chat "c" with messages m0…m5; two replicas recording from it.
    static func replicas() throws -> (Context, Context) {
        var base = Context()
        for user in [User.bob, .alice, .john] { try user.save(to: &base) }
        let messages = (0..<6).map { Message(id: "m\($0)", text: "\($0)", author: .id("1")) }
        try Chat(id: "c", messages: .relation(messages)).save(to: &base)
        try Chat(id: "d").save(to: &base)
        for id in ["x", "y"] { try Message(id: id, text: id, author: .id("1")).save(to: &base) }
        var a = base, b = base
        a.beginRecordingChanges(replica: "A")
        b.beginRecordingChanges(replica: "B")
        return (a, b)
    }

    /// Merges each replica's changes into the other; both must end equal and consistent.
    static func exchange(_ a: inout Context, _ b: inout Context) throws {
        let fromA = a.changes, fromB = b.changes
        a.merge(fromB)
        b.merge(fromA)
        #expect(dumped(a) == dumped(b))
        try a.checkInvariants()
        try b.checkInvariants()
    }

    @Test("Concurrent inserts at the same place keep both elements, in the same order on both replicas")
    func concurrentInserts() throws {
        var (a, b) = try Self.replicas()
        try Chat(id: "c").insert("x", into: \.$messages, at: 2, in: &a)
        try Chat(id: "c").insert("y", into: \.$messages, at: 2, in: &b)
        try Self.exchange(&a, &b)
        let order = ids(a, "c", \Chat.$messages)
        #expect(order.count == 8)
        #expect(Array(order[..<2]) == ["m0", "m1"] && Array(order[4...]) == ["m2", "m3", "m4", "m5"])
        #expect(Set(order[2..<4]) == ["x", "y"])
    }

    @Test("Concurrent moves of one element end with one position: the later stamp's")
    func concurrentMoves() throws {
        var (a, b) = try Self.replicas()
        try Chat(id: "c").move("m3", in: \.$messages, to: 0, in: &a)
        try Chat(id: "c").move("m3", in: \.$messages, to: 5, in: &b)   // B's stamp is later (same counter, "B" > "A")
        try Self.exchange(&a, &b)
        #expect(ids(a, "c", \Chat.$messages) == ["m0", "m1", "m2", "m4", "m5", "m3"])
    }

    @Test("A move and a remove of the same element end removed, whichever is later")
    func moveAndRemove() throws {
        for moverIsLater in [false, true] {
            var (a, b) = try Self.replicas()
            if moverIsLater { try Chat(id: "d").save(to: &b) }    // one more change: B's move stamps later
            try Chat(id: "c").move("m3", in: \.$messages, to: 0, in: &b)
            try Message.delete(id: "m3", from: &a)
            try Self.exchange(&a, &b)
            #expect(ids(a, "c", \Chat.$messages) == ["m0", "m1", "m2", "m4", "m5"])
            #expect(a.entity(Message.self, id: "m3") == nil)
        }
    }

    @Test("A to-one relation set on two replicas: the later stamp wins and the inverse follows")
    func concurrentToOne() throws {
        var (a, b) = try Self.replicas()
        try Message(id: "x", text: "x", chat: .id("c")).save(to: &a)
        try Message(id: "x", text: "x", chat: .id("d")).save(to: &b)
        try Self.exchange(&a, &b)
        #expect(ids(a, "x", \Message.$chat) == ["d"])
        #expect(ids(a, "d", \Chat.$messages) == ["x"])
        #expect(!ids(a, "c", \Chat.$messages).contains("x"))
    }

    @Test("Concurrent upserts merge by the entity's merge strategy, in stamp order")
    func upsertsMergeByStrategy() throws {
        var base = Context()
        try Note(id: "n", title: "t", body: "b").save(to: &base)
        var a = base, b = base
        a.beginRecordingChanges(replica: "A")
        b.beginRecordingChanges(replica: "B")
        try Note(id: "n", title: "title from A").save(to: &a)   // patch: body stays
        try Note(id: "n", body: "body from B").save(to: &b)     // patch: title stays
        try Self.exchange(&a, &b)
        #expect(a.entity(Note.self, id: "n") == Note(id: "n", title: "title from A", body: "body from B"))
        // With `.replace` the later writer's whole value wins.
        var c = base, d = base
        c.beginRecordingChanges(replica: "C")
        d.beginRecordingChanges(replica: "D")
        try Note(id: "n", title: "C").save(to: &c, options: .replace)
        try Note(id: "n", body: "D").save(to: &d, options: .replace)
        c.merge(d.changes)
        d.merge(c.changes)
        #expect(c.entity(Note.self, id: "n") == Note(id: "n", body: "D"))
        #expect(d.entity(Note.self, id: "n") == Note(id: "n", body: "D"))
    }

    @Test("Merging a change set twice, or one's own changes, changes nothing")
    func idempotent() throws {
        var (a, b) = try Self.replicas()
        try Chat(id: "c").move("m3", in: \.$messages, to: 0, in: &a)
        b.merge(a.changes)
        let once = Self.dumped(b)
        b.merge(a.changes)
        b.merge(b.changes)
        #expect(Self.dumped(b) == once)
    }

    @Test("A change set survives JSON coding: merging the decoded set equals merging the original")
    func coding() throws {
        var (a, b) = try Self.replicas()
        try Chat(id: "c").move("m3", in: \.$messages, to: 0, in: &a)
        try Chat(id: "c", users: .ids(["2", "1"])).save(to: &a)
        try Message.delete(id: "m1", from: &a)
        try Note(id: "n", title: "t").save(to: &a)
        try Message(id: "x", text: "edited", chat: .id("d")).save(to: &b)
        let data = try JSONEncoder().encode(a.changes)
        let decoder = JSONDecoder()
        decoder.userInfo[.relataSchema] = EntitySchema(User.self, Chat.self, Message.self, Attachment.self, Note.self)
        let decoded = try decoder.decode(ChangeSet.self, from: data)
        #expect(decoded.stamps == a.changes.stamps)
        var viaJSON = b, direct = b
        viaJSON.merge(decoded)
        direct.merge(a.changes)
        #expect(Self.dumped(viaJSON) == Self.dumped(direct))
        #expect(viaJSON.entity(Note.self, id: "n") == Note(id: "n", title: "t"))
    }

    @Test("Decoding a change set without a schema, or with an unknown type, is a clear error")
    func decodingErrors() throws {
        var (a, _) = try Self.replicas()
        try Chat(id: "c").move("m3", in: \.$messages, to: 0, in: &a)
        let data = try JSONEncoder().encode(a.changes)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ChangeSet.self, from: data) }
        let decoder = JSONDecoder()
        decoder.userInfo[.relataSchema] = EntitySchema(User.self)
        let error = #expect(throws: RelataError.self) { try decoder.decode(ChangeSet.self, from: data) }
        #expect(error?.code == .unknownEntityType)
        #expect(error?.entityType == "Chat")
    }

    @Test("Not recording: no changes are kept, and merging replays changes in order")
    func notRecording() throws {
        var (a, _) = try Self.replicas()
        try Chat(id: "c").move("m3", in: \.$messages, to: 0, in: &a)
        var plain = Context()
        try Chat(id: "z").save(to: &plain)
        #expect(!plain.isRecordingChanges && plain.changes.isEmpty)
        var copy = try Self.replicas().1
        copy.endRecordingChanges()
        copy.merge(a.changes)
        #expect(ids(copy, "c", \Chat.$messages) == ["m3", "m0", "m1", "m2", "m4", "m5"])
        #expect(copy.changes.isEmpty)
    }
}
