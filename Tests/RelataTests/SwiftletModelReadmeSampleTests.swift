import Foundation
import Relata
import Testing

/// The code samples of SwiftletModel's README, as a user would paste them.
@Suite("SwiftletModel README samples")
struct SwiftletModelReadmeSampleTests {
    func savedChat() throws -> Context {
        var context = Context()
        let chat = Chat(
            id: "1",
            users: .relation([
                User(id: "1", name: "Bob"),
                User(id: "2", name: "Alice"),
            ]),
            messages: .relation([
                Message(
                    id: "1",
                    text: "Any thoughts on SwiftletModel?",
                    author: .id("1")
                ),
                Message(
                    id: "2",
                    text: "Yes.",
                    author: .id("2"),
                    replyTo: .id("1")
                ),
            ]),
            admins: .ids(["1"])
        )
        try chat.save(to: &context)
        return context
    }

    @Test("Saving a chat normalizes users and messages and links both directions")
    func saveChat() throws {
        let context = try savedChat()
        #expect(context.count(of: User.self) == 2)
        #expect(context.count(of: Message.self) == 2)
        #expect(ids(context, "1", \User.$chats) == ["1"])
        #expect(ids(context, "1", \User.$adminOf) == ["1"])
        #expect(ids(context, "2", \User.$adminOf) == [])
        #expect(ids(context, "1", \Message.$chat) == ["1"])
        #expect(ids(context, "1", \Message.$replies) == ["2"])
        #expect(context.entity(Message.self, id: "1")?.chat == nil, "stored entities are normalized")
        try context.checkInvariants()
    }

    @Test("The nested user query resolves to the JSON SwiftletModel's README prints")
    func nestedQueryJSON() throws {
        let context = try savedChat()
        let user = User
            .query("1", in: context)
            .with(\.$chats) { chat in
                chat.with(\.$messages) { message in
                    message.with(\.$replies) { reply in
                        reply.with(\.$author)
                            .id(\.$replyTo)
                    }
                    .id(\.$author)
                    .id(\.$chat)
                }
                .with(\.$users)
                .id(\.$admins)
            }
            .resolve()

        let encoder = JSONEncoder.prettyPrinting
        encoder.relationEncodingStrategy = .plain
        let userJSON = user.prettyDescription(with: encoder) ?? ""
        #expect(try jsonObject(userJSON) == jsonObject(Self.readmeJSON))
    }

    @Test("related(_:) queries from the other end")
    func relatedQuery() throws {
        let context = try savedChat()
        let userChats: [Chat] = User
            .query("1", in: context)
            .related(\.$chats)
            .resolve()
        #expect(userChats.map(\.id) == ["1"])
    }

    @Test("Setting relations through the projected value")
    func settingRelations() throws {
        var context = try savedChat()
        let user = User.alice
        var message = Message(
            id: "3",
            text: "Howdy!"
        )
        message.$author = .relation(user)
        try message.save(to: &context)
        #expect(ids(context, "3", \Message.$author) == ["2"])

        message.$author = .id(user.id)
        try message.save(to: &context)
        try user.save(to: &context)

        message.$attachment = .relation(Attachment(id: "a", kind: .file(url: URL(fileURLWithPath: "/x"))))
        try message.save(to: &context)
        #expect(ids(context, "3", \Message.$attachment) == ["a"])

        message.$attachment = .none
        try message.save(to: &context)
        #expect(ids(context, "3", \Message.$attachment) == ["a"], ".none changes nothing")

        message.$attachment = .null
        try message.save(to: &context)
        #expect(ids(context, "3", \Message.$attachment) == [])
        #expect(context.entity(Attachment.self, id: "a") != nil, ".null does not delete the target")
        #expect(ids(context, "a", \Attachment.$message) == [])

        var chat = Chat(id: "1")
        chat.$messages = .relation([message])
        try chat.save(to: &context)
        #expect(ids(context, "1", \Chat.$messages) == ["3"])

        chat.$messages = .ids([message.id])
        try chat.save(to: &context)
        try message.save(to: &context)

        chat.$messages = .appending(relation: [Message(id: "4", text: "four")])
        try chat.save(to: &context)
        chat.$messages = .appending(ids: ["1"])
        try chat.save(to: &context)
        chat.$messages = .appending(ids: [message])
        try chat.save(to: &context)
        chat.$messages = .appending(fragment: [Message(id: "5", text: "five")])
        try chat.save(to: &context)
        #expect(ids(context, "1", \Chat.$messages) == ["3", "4", "1", "5"])
        try context.checkInvariants()
    }

    @Test("Fragments, detach and delete of related entities")
    func fragmentsDetachDelete() throws {
        var context = try savedChat()
        var chat = Chat(id: "1")
        chat.$users = .fragment([.bob, .alice, .john])
        try! chat.save(to: &context)
        #expect(ids(context, "1", \Chat.$users) == ["1", "2", "3"])

        let bob = try context.find(User.self, id: "1")
        bob.detach(\.$chats, inverse: \.$users, in: &context)
        #expect(ids(context, "1", \User.$chats) == [])
        #expect(ids(context, "1", \Chat.$users) == ["2", "3"])

        var message = Message(id: "1", text: "Any thoughts on SwiftletModel?")
        message.$attachment = .relation(Attachment(id: "a", kind: .file(url: URL(fileURLWithPath: "/a"))))
        try message.save(to: &context)
        try message.delete(\.$attachment, inverse: \.$message, from: &context)
        #expect(context.entity(Attachment.self, id: "a") == nil)
        #expect(context.entity(Message.self, id: "1") != nil)

        try Chat(id: "1").delete(from: &context)
        #expect(context.entity(Chat.self, id: "1") == nil)
        #expect(context.count(of: Message.self) == 0, "messages cascade with their chat")
        try context.checkInvariants()
    }

    static let readmeJSON = """
        {
          "adminOf" : null,
          "chats" : [
            {
              "admins" : [
                {
                  "id" : "1"
                }
              ],
              "id" : "1",
              "messages" : [
                {
                  "attachment" : null,
                  "author" : {
                    "id" : "1"
                  },
                  "chat" : {
                    "id" : "1"
                  },
                  "id" : "1",
                  "replies" : [
                    {
                      "attachment" : null,
                      "author" : {
                        "adminOf" : null,
                        "chats" : null,
                        "id" : "2",
                        "name" : "Alice"
                      },
                      "chat" : null,
                      "id" : "2",
                      "replies" : null,
                      "replyTo" : {
                        "id" : "1"
                      },
                      "text" : "Yes.",
                      "viewedBy" : null
                    }
                  ],
                  "replyTo" : null,
                  "text" : "Any thoughts on SwiftletModel?",
                  "viewedBy" : null
                },
                {
                  "attachment" : null,
                  "author" : {
                    "id" : "2"
                  },
                  "chat" : {
                    "id" : "1"
                  },
                  "id" : "2",
                  "replies" : [

                  ],
                  "replyTo" : null,
                  "text" : "Yes.",
                  "viewedBy" : null
                }
              ],
              "users" : [
                {
                  "adminOf" : null,
                  "chats" : null,
                  "id" : "1",
                  "name" : "Bob"
                },
                {
                  "adminOf" : null,
                  "chats" : null,
                  "id" : "2",
                  "name" : "Alice"
                }
              ]
            }
          ],
          "id" : "1",
          "name" : "Bob"
        }
        """
}

// SwiftletModel's "write your own merge strategy" sample, verbatim but for the name (ours already has
// `patch`): an extension of `MergeStrategy` with its own `Entity` generic parameter.
extension MergeStrategy {
    /**
    This is what the property patch MergeStrategy looks like.
    */
    static func readmePatch<Entity, Value>(_ keyPath: WritableKeyPath<Entity, Optional<Value>>) -> MergeStrategy<Entity>   {
        MergeStrategy<Entity> { old, new in
            var new = new
            new[keyPath: keyPath] = new[keyPath: keyPath] ?? old[keyPath: keyPath]
            return new
        }
    }
}

@Suite("SwiftletModel README merge samples")
struct SwiftletModelMergeSampleTests {
    @Test("A custom strategy written as SwiftletModel's README shows keeps the stored optional")
    func customPatch() throws {
        var context = Context()
        try Folder(id: "f", name: "Docs").save(to: &context)
        try Folder(id: "f").save(to: &context, options: MergeStrategy<Folder>.readmePatch(\Folder.name))
        #expect(context.entity(Folder.self, id: "f")?.name == "Docs")
        try Folder(id: "f").save(to: &context)
        #expect(context.entity(Folder.self, id: "f")?.name == nil, "the default strategy replaces")
    }
}
