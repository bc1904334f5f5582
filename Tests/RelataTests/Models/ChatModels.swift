import Foundation
import Relata

// The models of SwiftletModel's README (and workload W1), used by most tests.

@EntityModel
struct User: Codable, Equatable {
    let id: String
    private(set) var name: String
    private(set) var profile: Profile?

    @Relationship(inverse: \.users)
    var chats: [Chat]?

    @Relationship(inverse: \.admins)
    var adminOf: [Chat]?

    struct Profile: Codable, Equatable, Sendable {
        var bio: String
    }
}

@EntityModel
struct Chat: Codable, Equatable {
    let id: String

    @Relationship(inverse: \.chats)
    var users: [User]?

    @Relationship(deleteRule: .cascade, inverse: \.chat)
    var messages: [Message]?

    @Relationship(inverse: \.adminOf)
    var admins: [User]?
}

@EntityModel
struct Message: Codable, Equatable {
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
struct Attachment: Codable, Equatable {
    let id: String
    var kind: Kind

    @Relationship(.required, inverse: \.attachment)
    var message: Message?

    enum Kind: Codable, Equatable, Sendable {
        case image(url: URL)
        case file(url: URL)
    }
}
