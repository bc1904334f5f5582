import Foundation

/// The floor: W1 operations 1–4 by hand with plain dictionaries of stripped structs and arrays of
/// target ids for each relation and its inverse — the least work any normalized store must do.
struct FloorW1 {
    struct User { let id: String; var name: String }
    struct Chat { let id: String }
    struct Message { let id: String; let text: String }
    struct Attachment { let id: String; var kind: URL }

    struct Input {
        var users: [(User, chats: [String])] = []
        var chats: [(Chat, users: [String], admins: [String])] = []
        var messages: [(Message, author: String, chat: String, attachment: Attachment?, replyTo: String?)] = []

        init(_ data: W1Data) {
            users = data.users.map { (User(id: $0.id, name: $0.name), []) }
            chats = data.chats.map { (Chat(id: $0.id), $0.$users.ids, $0.$admins.ids) }
            messages = data.messages.map { m in
                (
                    Message(id: m.id, text: m.text), m.$author.id!, m.$chat.id!,
                    m.$attachment.entity.map { Attachment(id: $0.id, kind: URL(fileURLWithPath: "/files/attachment")) },
                    m.$replyTo.id
                )
            }
        }
    }

    var users: [String: User] = [:]
    var chats: [String: Chat] = [:]
    var messages: [String: Message] = [:]
    var attachments: [String: Attachment] = [:]
    var userChats: [String: [String]] = [:], chatUsers: [String: [String]] = [:]
    var userAdminOf: [String: [String]] = [:], chatAdmins: [String: [String]] = [:]
    var chatMessages: [String: [String]] = [:], messageChat: [String: String] = [:]
    var messageAuthor: [String: String] = [:], authorMessages: [String: [String]] = [:]
    var messageAttachment: [String: String] = [:], attachmentMessage: [String: String] = [:]
    var messageReplies: [String: [String]] = [:], messageReplyTo: [String: String] = [:]

    static func save(_ input: Input) -> FloorW1 {
        var s = FloorW1()
        for (user, _) in input.users { s.users[user.id] = user }
        for (chat, members, admins) in input.chats {
            s.chats[chat.id] = chat
            s.chatUsers[chat.id] = members
            for u in members { s.userChats[u, default: []].append(chat.id) }
            s.chatAdmins[chat.id] = admins
            for u in admins { s.userAdminOf[u, default: []].append(chat.id) }
        }
        for (message, author, chat, attachment, replyTo) in input.messages {
            s.messages[message.id] = message
            s.messageAuthor[message.id] = author
            s.authorMessages[author, default: []].append(message.id)
            s.messageChat[message.id] = chat
            s.chatMessages[chat, default: []].append(message.id)
            if let attachment {
                s.attachments[attachment.id] = attachment
                s.messageAttachment[message.id] = attachment.id
                s.attachmentMessage[attachment.id] = message.id
            }
            if let replyTo {
                s.messageReplyTo[message.id] = replyTo
                s.messageReplies[replyTo, default: []].append(message.id)
            }
        }
        return s
    }

    struct ResolvedMessage {
        let message: Message
        let attachment: Attachment?
        let author: String?
        let replies: [Message]
    }

    struct ResolvedChat {
        let chat: Chat
        let messages: [ResolvedMessage]
        let users: [User]
    }

    func resolve(chats count: Int) -> Int {
        var total = 0
        for i in 0..<count {
            let id = "c\(i)"
            guard let chat = chats[id] else { continue }
            let resolved = ResolvedChat(
                chat: chat,
                messages: (chatMessages[id] ?? []).compactMap { m in
                    messages[m].map { message in
                        ResolvedMessage(
                            message: message,
                            attachment: messageAttachment[m].flatMap { attachments[$0] },
                            author: messageAuthor[m],
                            replies: (messageReplies[m] ?? []).compactMap { messages[$0] }
                        )
                    }
                },
                users: (chatUsers[id] ?? []).compactMap { users[$0] }
            )
            total += resolved.messages.count
        }
        return total
    }

    func related(users count: Int) -> Int {
        var sum = 0
        for i in 0..<count {
            sum += Array(userChats["u\(i)"] ?? []).count
        }
        return sum
    }

    mutating func delete(chats count: Int) {
        for i in 0..<count {
            let chat = "c\(i)"
            for m in chatMessages.removeValue(forKey: chat) ?? [] {
                messages[m] = nil
                messageChat[m] = nil
                if let author = messageAuthor.removeValue(forKey: m), let index = authorMessages[author]?.firstIndex(of: m) {
                    authorMessages[author]!.remove(at: index)
                }
                if let attachment = messageAttachment.removeValue(forKey: m) {
                    attachments[attachment] = nil
                    attachmentMessage[attachment] = nil
                }
                for reply in messageReplies.removeValue(forKey: m) ?? [] { messageReplyTo[reply] = nil }
                if let parent = messageReplyTo.removeValue(forKey: m), let index = messageReplies[parent]?.firstIndex(of: m) {
                    messageReplies[parent]!.remove(at: index)
                }
            }
            for u in chatUsers.removeValue(forKey: chat) ?? [] { userChats[u]?.removeAll { $0 == chat } }
            for u in chatAdmins.removeValue(forKey: chat) ?? [] { userAdminOf[u]?.removeAll { $0 == chat } }
            chats[chat] = nil
        }
    }
}
