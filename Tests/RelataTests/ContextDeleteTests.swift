import Foundation
import Relata
import Testing

@Suite("Context delete")
struct ContextDeleteTests {
    @Test("Nullify removes links on both sides and keeps related entities")
    func nullify() throws {
        var context = Context()
        try Chat(id: "c", users: .relation([.bob, .alice]), admins: .ids(["1"])).save(to: &context)
        try Chat.delete(id: "c", from: &context)
        #expect(context.count(of: User.self) == 2)
        #expect(ids(context, "1", \User.$chats) == [])
        #expect(ids(context, "1", \User.$adminOf) == [])
        try context.checkInvariants()
    }

    @Test("Cascade erases related entities, recursively, with their own rules")
    func cascade() throws {
        var context = Context()
        let attachment = Attachment(id: "a", kind: .image(url: URL(fileURLWithPath: "/img")))
        try Chat(id: "c", users: .ids(["1"]), messages: .relation([
            Message(id: "m1", text: "1", author: .id("1"), attachment: .relation(attachment)),
            Message(id: "m2", text: "2", author: .id("1"), replyTo: .id("m1")),
        ])).save(to: &context)
        try Message(id: "other", text: "x", chat: .id("c2"), replyTo: .id("m1")).save(to: &context)
        try Chat(id: "c").delete(from: &context)
        #expect(context.count(of: Message.self) == 1)
        #expect(context.entity(Attachment.self, id: "a") == nil)
        #expect(ids(context, "other", \Message.$replyTo) == [], "links into erased entities are nullified")
        #expect(ids(context, "1", \User.$chats) == [])
        try context.checkInvariants()
    }

    @Test("willDelete and didDelete run for every erased entity, cascaded ones included")
    func hooks() throws {
        var context = Context()
        try Folder(id: "f", files: .ids(["a", "b"])).save(to: &context)
        try File(id: "a").save(to: &context)
        let before = HookEvent.log(context).count
        try Folder.delete(id: "f", from: &context)
        #expect(Array(HookEvent.log(context).dropFirst(before)) == [
            "willDelete folder f", "willDelete file a", "didDelete file a", "didDelete folder f",
        ], "file b was linked by id only and never stored: no hook, links removed")
        #expect(context.count(of: File.self) == 0)
    }

    @Test("A hook that throws stops the delete and the error reaches the caller")
    func throwingHook() throws {
        var context = Context()
        try File(id: "locked").save(to: &context)
        #expect(throws: RelataError.self) { try File.delete(id: "locked", from: &context) }
        #expect(context.entity(File.self, id: "locked") != nil)
    }

    @Test("detach(_:in:) removes a one-way relation; deleting by id an entity never stored removes links")
    func detachOneWayAndDeleteUnknown() throws {
        var context = Context()
        let message = Message(id: "m", text: "t", author: .id("ghost"), viewedBy: .ids(["1", "2"]))
        try message.save(to: &context)
        message.detach(\.$viewedBy, in: &context)
        #expect(ids(context, "m", \Message.$viewedBy) == [])
        try User.delete(id: "ghost", from: &context)
        #expect(ids(context, "m", \Message.$author) == [])
        try context.checkInvariants()
    }

    @Test("delete(_:from:) erases the targets of a one-way relation")
    func deleteOneWayTargets() throws {
        var context = Context()
        try Message(id: "m", text: "t", viewedBy: .relation([.bob, .alice])).save(to: &context)
        try Message(id: "m", text: "t").delete(\.$viewedBy, from: &context)
        #expect(context.count(of: User.self) == 0)
        #expect(context.entity(Message.self, id: "m") != nil)
    }
}
