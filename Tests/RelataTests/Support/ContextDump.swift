import Foundation
import Relata
@testable import RelataCore

/// A canonical text of everything a context holds for the chat models over a fixed id universe:
/// entity values and every relation's targets, with position keys for to-many relations. Two
/// contexts are identical for the tests when their dumps are equal.
func dump(_ context: Context, users: [String], chats: [String], messages: [String], attachments: [String]) -> String {
    // A context over storage reads what it lacks in batches first: the same answers, a few
    // statements instead of one per row.
    context.holdEverything()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var lines: [String] = []
    func entity<E: EntityModelProtocol>(_ type: E.Type, _ id: E.ID) {
        let value = context.entity(type, id: id).flatMap { try? encoder.encode($0) }
        lines.append("\(type) \(id): \(value.map { String(decoding: $0, as: UTF8.self) } ?? "-")")
        let dynamic = context.dynamicRelations(of: EntityReference(type, id: id))
        if !dynamic.isEmpty { lines.append("  dynamic: \(dynamic.map(\.description).joined(separator: ", "))") }
    }
    func many<S: EntityModelProtocol, T, D, K>(_ source: S, _ keyPath: KeyPath<S, Relation<T, D, Relations.ToMany, K>>, _ name: String) {
        let positions = source.positions(of: keyPath, in: context).map { "\($0.id)@\($0.key)" }
        if !positions.isEmpty { lines.append("  \(name): \(positions.joined(separator: " "))") }
    }
    func one<S: EntityModelProtocol, T, D, K>(_ id: S.ID, _ keyPath: KeyPath<S, Relation<T, D, Relations.ToOne, K>>, _ name: String) {
        let target = context.ids(of: id, keyPath)
        if !target.isEmpty { lines.append("  \(name): \(target)") }
    }
    for id in users {
        entity(User.self, id)
        let user = User(id: id, name: "")
        many(user, \.$chats, "chats")
        many(user, \.$adminOf, "adminOf")
    }
    for id in chats {
        entity(Chat.self, id)
        let chat = Chat(id: id)
        many(chat, \.$users, "users")
        many(chat, \.$messages, "messages")
        many(chat, \.$admins, "admins")
    }
    for id in messages {
        entity(Message.self, id)
        let message = Message(id: id, text: "")
        one(id, \Message.$author, "author")
        one(id, \Message.$chat, "chat")
        one(id, \Message.$attachment, "attachment")
        one(id, \Message.$replyTo, "replyTo")
        many(message, \.$replies, "replies")
        many(message, \.$viewedBy, "viewedBy")
    }
    for id in attachments {
        entity(Attachment.self, id)
        one(id, \Attachment.$message, "message")
    }
    return lines.joined(separator: "\n")
}
