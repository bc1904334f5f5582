import Relata
import Testing

@Suite("Inverse backlinks")
struct BacklinkQueryTests {
    @Test("Sources linking through a one-way relation, current after saves and deletes, with O(1) counts")
    func oneWay() throws {
        var context = Context()
        try User.bob.save(to: &context)
        for (id, author) in [("m3", "1"), ("m1", "1"), ("m2", "2")] {
            try Message(id: id, text: id, author: .id(author)).save(to: &context)
        }
        #expect(context.sources(linkingTo: "1", through: \Message.$author) == ["m1", "m3"])
        #expect(context.countOfSources(linkingTo: "1", through: \Message.$author) == 2)
        try Message(id: "m1", text: "m1", author: .id("2")).save(to: &context)
        #expect(context.sources(linkingTo: "1", through: \Message.$author) == ["m3"])
        try Message.delete(id: "m3", from: &context)
        #expect(context.sources(linkingTo: "1", through: \Message.$author).isEmpty)
        #expect(context.countOfSources(linkingTo: "2", through: \Message.$author) == 2)
    }

    @Test("A target with hundreds of one-way sources: added, moved away and deleted, the backlinks stay exact")
    func manySources() throws {
        var context = Context()
        for user in [User.bob, .alice] { try user.save(to: &context) }
        // 600 sources: past the few kept in an array (256), into the set, and back down.
        let ids = (0..<600).map { "m\($0)" }
        for id in ids { try Message(id: id, text: id, author: .id("1")).save(to: &context) }
        #expect(context.sources(linkingTo: "1", through: \Message.$author) == ids.sorted())
        for id in ids[0..<200] { try Message(id: id, text: id, author: .id("2")).save(to: &context) }
        try Message.delete(ids: Array(ids[200..<500]), from: &context)
        #expect(context.sources(linkingTo: "1", through: \Message.$author) == ids[500...].sorted())
        #expect(context.sources(linkingTo: "2", through: \Message.$author) == ids[0..<200].sorted())
        #expect(context.countOfSources(linkingTo: "1", through: \Message.$author) == 100)
        try context.checkInvariants()
        // Deleting the target unlinks every source, whichever form its sources are kept in.
        try User.delete(id: "2", from: &context)
        #expect(context.sources(linkingTo: "2", through: \Message.$author).isEmpty)
        #expect(Message.query("m0", in: context).related(\.$author) == nil)
        try context.checkInvariants()
    }

    @Test("Sources linking through a mutual relation come in the inverse relation's order")
    func mutual() throws {
        var context = Context()
        try Chat(id: "c", users: .ids(["3", "1"])).save(to: &context)
        try Chat(id: "d", users: .ids(["1"])).save(to: &context)
        #expect(context.sources(linkingTo: "1", through: \Chat.$users) == ["c", "d"])
        #expect(context.countOfSources(linkingTo: "1", through: \Chat.$users) == 2)
        try Chat.delete(id: "c", from: &context)
        #expect(context.sources(linkingTo: "1", through: \Chat.$users) == ["d"])
    }

    @Test("Backlinks are usable in queries")
    func inQueries() throws {
        var context = Context()
        for user in [User.bob, .alice] { try user.save(to: &context) }
        try Chat(id: "c", messages: .relation([
            Message(id: "m1", text: "one", author: .id("1")), Message(id: "m2", text: "two", author: .id("2")),
            Message(id: "m3", text: "three", author: .id("1")),
        ])).save(to: &context)
        let bobs = User.query("1", in: context).linking(\Message.$author).with(\.$chat).resolve()
        #expect(bobs.map(\.text) == ["one", "three"])
        #expect(bobs.allSatisfy { $0.chat?.id == "c" })
        #expect(User.query("1", in: context).countLinking(\Message.$author) == 2)
        #expect(User.query("9", in: context).linking(\Message.$author).resolve().isEmpty)
    }
}
