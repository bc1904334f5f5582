import Relata

/// A naive model of the chat graph's links with the semantics Relata documents, to check the
/// Context against after every operation of a random sequence.
struct ReferenceModel {
    var users: Set<String> = [], chats: Set<String> = [], messages: Set<String> = [], attachments: Set<String> = []
    var chatUsers: [String: [String]] = [:], userChats: [String: [String]] = [:]
    var chatMessages: [String: [String]] = [:], messageChat: [String: String] = [:]
    var messageAuthor: [String: String] = [:]
    var messageViewedBy: [String: [String]] = [:]
    var messageReplyTo: [String: String] = [:], messageReplies: [String: [String]] = [:]
    var messageAttachment: [String: String] = [:], attachmentMessage: [String: String] = [:]

    // MARK: Generic list and pointer edits

    static func append(_ value: String, to list: inout [String: [String]], at key: String) {
        if list[key]?.contains(value) != true { list[key, default: []].append(value) }
    }

    static func remove(_ value: String, from list: inout [String: [String]], at key: String) {
        list[key]?.removeAll { $0 == value }
        if list[key]?.isEmpty == true { list[key] = nil }
    }

    // MARK: Operations

    mutating func setChatUsers(_ chat: String, _ ids: [String], appending: Bool) {
        let old = chatUsers[chat] ?? []
        if appending {
            for user in ids where !(chatUsers[chat] ?? []).contains(user) {
                Self.append(user, to: &chatUsers, at: chat)
                Self.append(chat, to: &userChats, at: user)
            }
            return
        }
        var new: [String] = []
        for id in ids where !new.contains(id) { new.append(id) }
        chatUsers[chat] = new.isEmpty ? nil : new
        for user in old where !new.contains(user) { Self.remove(chat, from: &userChats, at: user) }
        for user in new where !old.contains(user) { Self.append(chat, to: &userChats, at: user) }
    }

    mutating func setMessageChat(_ message: String, _ chat: String) {
        guard messageChat[message] != chat else { return }
        if let old = messageChat[message] { Self.remove(message, from: &chatMessages, at: old) }
        messageChat[message] = chat
        Self.append(message, to: &chatMessages, at: chat)
    }

    mutating func setReplyTo(_ message: String, _ parent: String) {
        guard messageReplyTo[message] != parent else { return }
        if let old = messageReplyTo[message] { Self.remove(message, from: &messageReplies, at: old) }
        messageReplyTo[message] = parent
        Self.append(message, to: &messageReplies, at: parent)
    }

    mutating func setAttachment(_ message: String, _ attachment: String?) {
        let old = messageAttachment[message]
        guard old != attachment else { return }
        if let old, attachmentMessage[old] == message { attachmentMessage[old] = nil }
        messageAttachment[message] = attachment
        guard let attachment else { return }
        if let displaced = attachmentMessage[attachment], displaced != message { messageAttachment[displaced] = nil }
        attachmentMessage[attachment] = message
    }

    mutating func deleteUser(_ user: String) {
        users.remove(user)
        for chat in userChats.removeValue(forKey: user) ?? [] { Self.remove(user, from: &chatUsers, at: chat) }
        for (message, author) in messageAuthor where author == user { messageAuthor[message] = nil }
        for message in messageViewedBy.keys { Self.remove(user, from: &messageViewedBy, at: message) }
    }

    mutating func deleteChat(_ chat: String) {
        chats.remove(chat)
        for user in chatUsers.removeValue(forKey: chat) ?? [] { Self.remove(chat, from: &userChats, at: user) }
        let messages = chatMessages.removeValue(forKey: chat) ?? []
        for message in messages { messageChat[message] = nil }
        for message in messages { deleteMessage(message) }
    }

    mutating func deleteMessage(_ message: String) {
        messages.remove(message)
        messageAuthor[message] = nil
        if let chat = messageChat.removeValue(forKey: message) { Self.remove(message, from: &chatMessages, at: chat) }
        let attachment = messageAttachment.removeValue(forKey: message)
        if let attachment, attachmentMessage[attachment] == message { attachmentMessage[attachment] = nil }
        for reply in messageReplies.removeValue(forKey: message) ?? [] { messageReplyTo[reply] = nil }
        if let parent = messageReplyTo.removeValue(forKey: message) { Self.remove(message, from: &messageReplies, at: parent) }
        messageViewedBy[message] = nil
        if let attachment {
            attachments.remove(attachment)
            if let owner = attachmentMessage.removeValue(forKey: attachment) { messageAttachment[owner] = nil }
        }
    }
}
