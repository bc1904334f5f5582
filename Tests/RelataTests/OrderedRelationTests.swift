import Foundation
import Relata
import Testing

@Suite("Ordered to-many relations")
struct OrderedRelationTests {
    /// A chat with messages m0…m(n-1), in that order.
    static func chat(messages n: Int) throws -> Context {
        var context = Context()
        try User.bob.save(to: &context)
        let messages = (0..<n).map { Message(id: "m\($0)", text: "\($0)", author: .id("1")) }
        try Chat(id: "c", messages: .relation(messages)).save(to: &context)
        return context
    }

    static func keys(_ context: Context, _ chat: String = "c") -> [String: PositionKey] {
        Dictionary(uniqueKeysWithValues: Chat(id: chat).positions(of: \.$messages, in: context).map { ($0.id, $0.key) })
    }

    @Test("Resolve returns the order given; a new order reorders; appending adds at the end")
    func orderAsGiven() throws {
        var context = Context()
        for user in [User.bob, .alice, .john] { try user.save(to: &context) }
        try Chat(id: "c", users: .ids(["3", "1", "2"])).save(to: &context)
        #expect(ids(context, "c", \Chat.$users) == ["3", "1", "2"])
        #expect(Chat.query("c", in: context).with(\.$users).resolve()?.users?.map(\.id) == ["3", "1", "2"])
        try Chat(id: "c", users: .ids(["2", "3", "1"])).save(to: &context)
        #expect(ids(context, "c", \Chat.$users) == ["2", "3", "1"])
        try Chat(id: "c", users: .appending(ids: ["4", "3"])).save(to: &context)
        #expect(ids(context, "c", \Chat.$users) == ["2", "3", "1", "4"])
        try context.checkInvariants()
    }

    @Test("An inverse link is added at the end of the inverse relation")
    func inverseAtEnd() throws {
        var context = try Self.chat(messages: 3)
        try Message(id: "m9", text: "late", author: .id("1"), chat: .id("c")).save(to: &context)
        #expect(ids(context, "c", \Chat.$messages) == ["m0", "m1", "m2", "m9"])
        try Chat(id: "d", users: .ids(["1"])).save(to: &context)
        try Chat(id: "e", users: .ids(["1"])).save(to: &context)
        #expect(ids(context, "1", \User.$chats) == ["d", "e"])
    }

    @Test("Replacing the array rewrites only the elements outside the longest run that kept its order")
    func replaceRewritesOnlyMovedElements() throws {
        var context = try Self.chat(messages: 8)
        let before = Self.keys(context)
        context.beginRecordingChanges(replica: "r")
        // m6 moves to the front, m2 leaves, m9 is new: m0 m1 m3 m4 m5 m7 kept their relative order.
        try Chat(id: "c", messages: .ids(["m6", "m0", "m1", "m3", "m9", "m4", "m5", "m7"])).save(to: &context)
        #expect(ids(context, "c", \Chat.$messages) == ["m6", "m0", "m1", "m3", "m9", "m4", "m5", "m7"])
        let after = Self.keys(context)
        for kept in ["m0", "m1", "m3", "m4", "m5", "m7"] { #expect(after[kept] == before[kept], "\(kept) kept its key") }
        #expect(after["m6"] != before["m6"])
        // Link writes: m6 moved, m2 unlinked, m9 linked (each one change).
        #expect(context.changes.linkWriteCount == 3)
        try context.checkInvariants()
    }

    @Test("Inserting and moving one element write exactly one link and keep every other key")
    func insertAndMoveWriteOneLink() throws {
        var context = try Self.chat(messages: 5)
        try Message(id: "x", text: "x", author: .id("1")).save(to: &context)
        let before = Self.keys(context)
        context.beginRecordingChanges(replica: "r")
        try Chat(id: "c").insert("x", into: \.$messages, at: 2, in: &context)
        #expect(ids(context, "c", \Chat.$messages) == ["m0", "m1", "x", "m2", "m3", "m4"])
        #expect(ids(context, "x", \Message.$chat) == ["c"])
        #expect(context.changes.linkWriteCount == 1)
        try Chat(id: "c").move("m4", in: \.$messages, to: 0, in: &context)
        #expect(ids(context, "c", \Chat.$messages) == ["m4", "m0", "m1", "x", "m2", "m3"])
        try Chat(id: "c").move("m0", in: \.$messages, to: 5, in: &context)
        #expect(ids(context, "c", \Chat.$messages) == ["m4", "m1", "x", "m2", "m3", "m0"])
        #expect(context.changes.linkWriteCount == 3)
        let after = Self.keys(context)
        for kept in ["m1", "m2", "m3"] { #expect(after[kept] == before[kept]) }
        try context.checkInvariants()
    }

    @Test("Inserting an entity saves it; inserting a linked one moves it")
    func insertEntity() throws {
        var context = try Self.chat(messages: 2)
        try Chat(id: "c").insert(Message(id: "n", text: "new", author: .id("1")), into: \.$messages, at: 0, in: &context)
        #expect(context.entity(Message.self, id: "n")?.text == "new")
        #expect(ids(context, "c", \Chat.$messages) == ["n", "m0", "m1"])
        try Chat(id: "c").insert("n", into: \.$messages, at: 2, in: &context)
        #expect(ids(context, "c", \Chat.$messages) == ["m0", "m1", "n"])
    }

    @Test("Out-of-range indexes and unlinked elements throw errors naming entity, relation and index; nothing changes")
    func errors() throws {
        var context = try Self.chat(messages: 2)
        let before = Self.keys(context)
        let tooFar = #expect(throws: RelataError.self) { try Chat(id: "c").insert("z", into: \.$messages, at: 3, in: &context) }
        #expect(tooFar?.code == .indexOutOfRange)
        #expect(tooFar?.entityType == "Chat" && tooFar?.id == "c" && tooFar?.relation == "messages")
        #expect(tooFar?.message.contains("3") == true)
        let unlinked = #expect(throws: RelataError.self) { try Chat(id: "c").move("z", in: \.$messages, to: 0, in: &context) }
        #expect(unlinked?.code == .notLinked)
        let negative = #expect(throws: RelataError.self) { try Chat(id: "c").move("m0", in: \.$messages, to: -1, in: &context) }
        #expect(negative?.code == .indexOutOfRange)
        #expect(Self.keys(context) == before)
        #expect(context.entity(Message.self, id: "z") == nil)
    }

    @Test("The order survives encoding, decoding and saving into another context")
    func orderSurvivesCoding() throws {
        var context = try Self.chat(messages: 6)
        try Chat(id: "c").move("m5", in: \.$messages, to: 1, in: &context)
        let chat = try #require(Chat.query("c", in: context).with(\.$messages).resolve())
        for (encoding, decoding) in [(RelationEncodingStrategy.plain, RelationDecodingStrategy.plain), (.keyed, .keyed)] {
            let encoder = JSONEncoder()
            encoder.relationEncodingStrategy = encoding
            let decoder = JSONDecoder()
            decoder.relationDecodingStrategy = decoding
            let decoded = try decoder.decode(Chat.self, from: encoder.encode(chat))
            var copy = Context()
            try decoded.save(to: &copy)
            #expect(ids(copy, "c", \Chat.$messages) == ["m0", "m5", "m1", "m2", "m3", "m4"])
        }
    }
}

@Suite("Ordered relations: equal keys")
struct EqualPositionKeyTests {
    /// A change set linking chat "c" to `targets`, all at the same key (as two replicas that drew
    /// the same key would leave them).
    static func sameKey(_ targets: [String], key: String) throws -> ChangeSet {
        let entries = targets.enumerated().map { index, target in
            #"{"stamp":{"counter":\#(index + 1),"replica":"X"},"entity":"Chat","kind":"link","relation":"messages","source":"c","target":"\#(target)","key":"\#(key)"}"#
        }
        let decoder = JSONDecoder()
        decoder.userInfo[.relataSchema] = EntitySchema(Chat.self, Message.self, User.self, Attachment.self)
        return try decoder.decode(ChangeSet.self, from: Data("[\(entries.joined(separator: ","))]".utf8))
    }

    @Test("Elements with equal keys are ordered by target id, whatever order they arrived in")
    func tieBreakByID() throws {
        var a = Context(), b = Context()
        a.merge(try Self.sameKey(["m2", "m1", "m3"], key: "a5V"))
        b.merge(try Self.sameKey(["m3", "m2", "m1"], key: "a5V"))
        #expect(ids(a, "c", \Chat.$messages) == ["m1", "m2", "m3"])
        #expect(ids(b, "c", \Chat.$messages) == ["m1", "m2", "m3"])
        #expect(ids(a, "m2", \Message.$chat) == ["c"])
        try a.checkInvariants()
    }

    @Test("Inserting between two equal keys moves only the equal-keyed elements after the index")
    func insertBetweenEqualKeys() throws {
        var context = Context()
        context.merge(try Self.sameKey(["m1", "m2", "m3"], key: "a5V"))
        context.merge(try Self.sameKey(["m4"], key: "a7"))
        context.beginRecordingChanges(replica: "r")
        try Chat(id: "c").insert("x", into: \.$messages, at: 1, in: &context)
        #expect(ids(context, "c", \Chat.$messages) == ["m1", "x", "m2", "m3", "m4"])
        let keys = Chat(id: "c").positions(of: \.$messages, in: context).map(\.key)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
        #expect(keys.first == PositionKey("a5V") && keys.last == PositionKey("a7"))
        #expect(context.changes.linkWriteCount == 3, "x, and m2 and m3 moved past it")
        try context.checkInvariants()
    }
}
