import Foundation
import Relata

// Workload W1's models: the chat domain of SwiftletModel's README as its README declares it,
// without the full-text index the demo's messages have (ChatExample), so W1 measures what its
// hand-written baselines do. They live in the benchmark's own module, as a user's models live
// in the user's program.

@EntityModel
struct User: Codable {
    let id: String
    var name: String

    @Relationship(inverse: \.users)
    var chats: [Chat]?

    @Relationship(inverse: \.admins)
    var adminOf: [Chat]?
}

@EntityModel
struct Chat: Codable {
    let id: String

    @Relationship(inverse: \.chats)
    var users: [User]?

    @Relationship(deleteRule: .cascade, inverse: \.chat)
    var messages: [Message]?

    @Relationship(inverse: \.adminOf)
    var admins: [User]?
}

@EntityModel
struct Message: Codable {
    let id: String
    let text: String

    @Relationship(.required)
    var author: User?

    @Relationship(.required, inverse: \.messages)
    var chat: Chat?

    @Relationship(deleteRule: .cascade, inverse: \.message)
    var attachment: Attachment?

    @Relationship(inverse: \.replyTo)
    var replies: [Message]?

    @Relationship(inverse: \.replies)
    var replyTo: Message?

    @Relationship
    var viewedBy: [User]? = nil
}

@EntityModel
struct Attachment: Codable {
    let id: String
    var kind: Kind

    @Relationship(.required, inverse: \.attachment)
    var message: Message?

    enum Kind: Codable, Sendable {
        case image(url: URL)
        case file(url: URL)
    }
}
