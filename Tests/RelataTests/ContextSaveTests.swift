import Foundation
import Relata
import Testing

@Suite("Context save")
struct ContextSaveTests {
    @Test("Replacing a to-one unlinks the previous target on both sides")
    func replaceToOne() throws {
        var context = Context()
        try Message(id: "m", text: "t", chat: .relation(Chat(id: "c1"))).save(to: &context)
        try Message(id: "m", text: "t", chat: .id("c2")).save(to: &context)
        #expect(ids(context, "m", \Message.$chat) == ["c2"])
        #expect(ids(context, "c1", \Chat.$messages) == [])
        #expect(ids(context, "c2", \Chat.$messages) == ["m"])
        try context.checkInvariants()
    }

    @Test("A one-to-one target linked by a new source is unlinked from the old source")
    func oneToOneDisplaced() throws {
        var context = Context()
        try Person(id: 1, name: "A", passport: .relation(Passport(id: 10))).save(to: &context)
        try Person(id: 2, name: "B", passport: .id(10)).save(to: &context)
        #expect(ids(context, 1, \Person.$passport) == [])
        #expect(ids(context, 2, \Person.$passport) == [10])
        #expect(ids(context, 10, \Passport.$owner) == [2])
        try Passport(id: 10, owner: .id(1)).save(to: &context)
        #expect(ids(context, 1, \Person.$passport) == [10])
        #expect(ids(context, 2, \Person.$passport) == [])
        try context.checkInvariants()
    }

    @Test("A to-one inverse moves the source out of its previous to-many")
    func manyToOneMoves() throws {
        var context = Context()
        try Chat(id: "c1", messages: .ids(["m1", "m2"])).save(to: &context)
        try Chat(id: "c2", messages: .ids(["m2"])).save(to: &context)
        #expect(ids(context, "c1", \Chat.$messages) == ["m1"])
        #expect(ids(context, "m2", \Message.$chat) == ["c2"])
        try context.checkInvariants()
    }

    @Test("Saving .ids replaces the links in the new order; .appending adds only new ones")
    func toManyReplaceAndAppend() throws {
        var context = Context()
        try Chat(id: "c", users: .ids(["1", "2", "3"])).save(to: &context)
        try Chat(id: "c", users: .ids(["3", "1", "4"])).save(to: &context)
        #expect(ids(context, "c", \Chat.$users) == ["3", "1", "4"])
        #expect(ids(context, "2", \User.$chats) == [])
        #expect(ids(context, "4", \User.$chats) == ["c"])
        try Chat(id: "c", users: .appending(ids: ["1", "5"])).save(to: &context)
        #expect(ids(context, "c", \Chat.$users) == ["3", "1", "4", "5"])
        try Chat(id: "c", users: .ids([])).save(to: &context)
        #expect(ids(context, "c", \Chat.$users) == [])
        #expect(ids(context, "3", \User.$chats) == [])
        try context.checkInvariants()
    }

    @Test("Relations left out (.none) never overwrite stored links")
    func noneKeepsLinks() throws {
        var context = Context()
        try Message(id: "m", text: "a", author: .id("u"), chat: .id("c"), viewedBy: .ids(["u"])).save(to: &context)
        try Message(id: "m", text: "b").save(to: &context)
        #expect(context.entity(Message.self, id: "m")?.text == "b")
        #expect(ids(context, "m", \Message.$author) == ["u"])
        #expect(ids(context, "m", \Message.$chat) == ["c"])
        #expect(ids(context, "m", \Message.$viewedBy) == ["u"])
    }

    @Test("Nested related entities are saved with their own relations, hooks included")
    func nestedSaveRunsHooks() throws {
        var context = Context()
        try Folder(id: "f", files: .relation([File(id: "a"), File(id: "b")])).save(to: &context)
        #expect(HookEvent.log(context) == [
            "willSave folder f", "willSave file a", "didSave file a", "willSave file b", "didSave file b",
            "didSave folder f",
        ])
        #expect(ids(context, "a", \File.$folder) == ["f"])
    }

    @Test("A copy of a context is an independent snapshot")
    func copyOnWrite() throws {
        var context = Context()
        try Chat(id: "c", users: .ids(["1"])).save(to: &context)
        let snapshot = context
        try Chat(id: "c", users: .appending(ids: ["2"])).save(to: &context)
        try User(id: "9", name: "Nine").save(to: &context)
        try Chat.delete(id: "c", from: &context)
        #expect(ids(snapshot, "c", \Chat.$users) == ["1"])
        #expect(snapshot.entity(Chat.self, id: "c") != nil)
        #expect(snapshot.entity(User.self, id: "9") == nil)
        #expect(context.entity(Chat.self, id: "c") == nil)
        var branch = snapshot
        try User(id: "1", name: "Branch").save(to: &branch)
        #expect(snapshot.entity(User.self, id: "1") == nil)
        #expect(branch.entity(User.self, id: "1")?.name == "Branch")
    }

    @Test("Contexts cross concurrency domains (Sendable)")
    func sendable() async throws {
        var context = Context()
        try Chat(id: "c", users: .ids(["1", "2"])).save(to: &context)
        let frozen = context
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { frozen.count(of: "c", \Chat.$users) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 2, count: 8))
    }

    @Test("Self-referencing relations with Int ids")
    func selfReference() throws {
        var context = Context()
        try Person(id: 1, name: "Root", friends: .ids([2, 3]), mentees: .relation([Person(id: 2, name: "Two")]))
            .save(to: &context)
        #expect(ids(context, 2, \Person.$mentor) == [1])
        #expect(ids(context, 1, \Person.$friends) == [2, 3])
        try Person.delete(id: 2, from: &context)
        #expect(ids(context, 1, \Person.$friends) == [3], "one-way links to an erased entity are removed")
        #expect(ids(context, 1, \Person.$mentees) == [])
        try context.checkInvariants()
    }
}
