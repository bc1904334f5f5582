import Foundation
import Relata
import Testing

@EntityModel
struct Bookmark: Codable, Equatable {
    let id: String
    var target: Alias<Message>
    var others: [Alias<User>] = []
}

@Suite("Aliases")
struct AliasTests {
    @Test("An alias resolves strictly (throwing) or permissively (optional), also after its target is erased")
    func resolution() throws {
        var context = Context()
        try Message(id: "m", text: "hello", author: .id("1")).save(to: &context)
        try User.bob.save(to: &context)
        try Bookmark(id: "b", target: Alias("m"), others: [Alias(User.bob), Alias("ghost")]).save(to: &context)
        let bookmark = try context.find(Bookmark.self, id: "b")
        #expect(try context.instance(from: bookmark.target).text == "hello")
        #expect(context.optionalInstance(from: bookmark.target)?.id == "m")
        #expect(context.instances(from: bookmark.others).map(\.id) == ["1"])

        try Message.delete(id: "m", from: &context)
        #expect(context.entity(Bookmark.self, id: "b") != nil, "no cascade through an alias")
        #expect(context.optionalInstance(from: bookmark.target) == nil)
        let error = #expect(throws: RelataError.self) { try context.instance(from: bookmark.target) }
        #expect(error?.code == .entityNotFound && error?.entityType == "Message" && error?.id == "m")
    }

    @Test("An alias is stored as the bare id")
    func coding() throws {
        let data = try JSONEncoder().encode(Alias<User>("42"))
        #expect(String(decoding: data, as: UTF8.self) == #""42""#)
        #expect(try JSONDecoder().decode(Alias<User>.self, from: data) == Alias("42"))
    }
}
