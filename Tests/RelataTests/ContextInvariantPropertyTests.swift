import PropertyBased
import Relata
import Testing

/// Long random sequences of save / append / null / detach / delete over SwiftletModel's chat models,
/// checked after every step against ``ReferenceModel``: every mutual link has its inverse, no link
/// points at an erased entity, and what the context resolves agrees with the reference.
@Suite("Context invariants (property-based)")
struct ContextInvariantPropertyTests {
    static let userIDs = ["u0", "u1", "u2", "u3"]
    static let chatIDs = ["c0", "c1", "c2"]
    static let messageIDs = ["m0", "m1", "m2", "m3", "m4", "m5"]
    static let attachmentIDs = ["a0", "a1", "a2"]

    @Test("Random operation sequences keep the context equal to the reference model")
    func randomSequences() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...100_000).array(of: 1...60)) { codes in
            checkSequence(
                codes, reference: ReferenceModel(),
                apply: { try Self.apply($0, to: &$1, &$2) }, check: { try Self.check($0, against: $1, after: $2) }
            )
        }
    }

    static func pick(_ ids: [String], _ r: Int) -> String { ids[r % ids.count] }

    static func subset(_ ids: [String], _ r: Int) -> [String] {
        // A subset in an order that depends on r, so reorders are exercised too.
        let rotated = Array(ids[(r / 16 % ids.count)...] + ids[..<(r / 16 % ids.count)])
        return rotated.enumerated().filter { r & (1 << $0.offset) != 0 }.map(\.element)
    }

    /// Applies the operation encoded by `code` to both models; returns a description.
    static func apply(_ code: Int, to context: inout Context, _ reference: inout ReferenceModel) throws -> String {
        let r = code / 12
        switch code % 12 {
        case 0:
            let user = pick(userIDs, r)
            try User(id: user, name: "n\(r)").save(to: &context)
            reference.users.insert(user)
            return "save user \(user)"
        case 1, 2:
            let chat = pick(chatIDs, r), users = subset(userIDs, r / 3), appending = code % 12 == 2
            try Chat(id: chat, users: appending ? .appending(ids: users) : .ids(users)).save(to: &context)
            reference.chats.insert(chat)
            reference.setChatUsers(chat, users, appending: appending)
            return "save chat \(chat) users \(appending ? "+" : "=")\(users)"
        case 3:
            let message = pick(messageIDs, r), chat = pick(chatIDs, r / 7)
            try Message(id: message, text: "t", chat: .id(chat)).save(to: &context)
            reference.messages.insert(message)
            reference.setMessageChat(message, chat)
            return "save message \(message) chat \(chat)"
        case 4:
            let message = pick(messageIDs, r), parent = pick(messageIDs, r / 7)
            try Message(id: message, text: "t", replyTo: .id(parent)).save(to: &context)
            reference.messages.insert(message)
            reference.setReplyTo(message, parent)
            return "save message \(message) replyTo \(parent)"
        case 5:
            let message = pick(messageIDs, r), author = pick(userIDs, r / 7)
            try Message(id: message, text: "t", author: .id(author), viewedBy: .ids(subset(userIDs, r / 5)))
                .save(to: &context)
            reference.messages.insert(message)
            reference.messageAuthor[message] = author
            let viewers = subset(userIDs, r / 5)
            reference.messageViewedBy[message] = viewers.isEmpty ? nil : viewers
            return "save message \(message) author \(author)"
        case 6:
            let message = pick(messageIDs, r)
            if r % 3 == 0 {
                try Message(id: message, text: "t", attachment: .null).save(to: &context)
                reference.messages.insert(message)
                reference.setAttachment(message, nil)
                return "save message \(message) attachment null"
            }
            let attachment = pick(attachmentIDs, r / 7)
            try Message(id: message, text: "t", attachment: .relation(Attachment(id: attachment, kind: .file(url: .init(fileURLWithPath: "/"))))).save(to: &context)
            reference.messages.insert(message)
            reference.attachments.insert(attachment)
            reference.setAttachment(message, attachment)
            return "save message \(message) attachment \(attachment)"
        case 7:
            let user = pick(userIDs, r)
            User(id: user, name: "").detach(\.$chats, inverse: \.$users, in: &context)
            for chat in reference.userChats.removeValue(forKey: user) ?? [] {
                ReferenceModel.remove(user, from: &reference.chatUsers, at: chat)
            }
            return "detach user \(user) chats"
        case 8:
            let user = pick(userIDs, r)
            try User.delete(id: user, from: &context)
            reference.deleteUser(user)
            try expectNoLink(to: user, in: context)
            return "delete user \(user)"
        case 9:
            let chat = pick(chatIDs, r)
            try Chat.delete(id: chat, from: &context)
            reference.deleteChat(chat)
            return "delete chat \(chat)"
        case 10:
            let message = pick(messageIDs, r)
            try Message.delete(id: message, from: &context)
            reference.deleteMessage(message)
            try expectNoLink(to: message, in: context)
            return "delete message \(message)"
        default:
            let message = pick(messageIDs, r)
            try Message(id: message, text: "t", viewedBy: .appending(ids: subset(userIDs, r / 3))).save(to: &context)
            reference.messages.insert(message)
            for user in subset(userIDs, r / 3) { ReferenceModel.append(user, to: &reference.messageViewedBy, at: message) }
            return "append viewers of \(message)"
        }
    }

    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    static func expectNoLink(to id: String, in context: Context) throws {
        for user in userIDs where context.ids(of: user, \User.$chats).contains(id) {
            throw Mismatch(description: "user \(user) still links to erased \(id)")
        }
        for message in messageIDs {
            let linked = context.ids(of: message, \Message.$author) + context.ids(of: message, \Message.$viewedBy)
                + context.ids(of: message, \Message.$replies) + context.ids(of: message, \Message.$replyTo)
            if linked.contains(id) { throw Mismatch(description: "message \(message) still links to erased \(id)") }
        }
    }

    static func check(_ context: Context, against reference: ReferenceModel, after operation: String) throws {
        try context.checkInvariants()
        func expect<T: Equatable>(_ actual: T, _ expected: T, _ what: String) throws {
            guard actual == expected else {
                throw Mismatch(description: "after \(operation): \(what) is \(actual), expected \(expected)")
            }
        }
        try expect(Set(context.ids(of: User.self)), reference.users, "users")
        try expect(Set(context.ids(of: Chat.self)), reference.chats, "chats")
        try expect(Set(context.ids(of: Message.self)), reference.messages, "messages")
        try expect(Set(context.ids(of: Attachment.self)), reference.attachments, "attachments")
        for chat in chatIDs {
            try expect(context.ids(of: chat, \Chat.$users), reference.chatUsers[chat] ?? [], "\(chat).users")
            try expect(context.ids(of: chat, \Chat.$messages), reference.chatMessages[chat] ?? [], "\(chat).messages")
        }
        for user in userIDs {
            try expect(context.ids(of: user, \User.$chats), reference.userChats[user] ?? [], "\(user).chats")
        }
        for message in messageIDs {
            try expect(context.ids(of: message, \Message.$chat).first, reference.messageChat[message], "\(message).chat")
            try expect(context.ids(of: message, \Message.$author).first, reference.messageAuthor[message], "\(message).author")
            try expect(context.ids(of: message, \Message.$viewedBy), reference.messageViewedBy[message] ?? [], "\(message).viewedBy")
            try expect(context.ids(of: message, \Message.$replyTo).first, reference.messageReplyTo[message], "\(message).replyTo")
            try expect(context.ids(of: message, \Message.$replies), reference.messageReplies[message] ?? [], "\(message).replies")
            try expect(context.ids(of: message, \Message.$attachment).first, reference.messageAttachment[message], "\(message).attachment")
            let resolved = Message.query(message, in: context).with(\.$replies).id(\.$chat).resolve()
            if reference.messages.contains(message) {
                try expect(resolved?.replies?.map(\.id) ?? [], (reference.messageReplies[message] ?? []).filter(reference.messages.contains), "resolved \(message).replies")
                try expect(resolved?.$chat.id, reference.messageChat[message], "resolved \(message).chat")
            } else {
                try expect(resolved == nil, true, "resolved erased \(message)")
            }
        }
        for attachment in attachmentIDs {
            try expect(context.ids(of: attachment, \Attachment.$message).first, reference.attachmentMessage[attachment], "\(attachment).message")
        }
    }
}
