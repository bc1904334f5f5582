import Foundation
import Relata

// The chat domain of SwiftletModel's README and workload W1, shared by relata-demo and relata-bench.

@EntityModel
public struct User: Codable {
    public let id: String
    public private(set) var name: String

    @Relationship(inverse: \.users)
    public var chats: [Chat]?

    @Relationship(inverse: \.admins)
    public var adminOf: [Chat]?
}

@EntityModel
public struct Chat: Codable {
    public let id: String

    @Relationship(inverse: \.chats)
    public var users: [User]?

    @Relationship(deleteRule: .cascade, inverse: \.chat)
    public var messages: [Message]?

    @Relationship(inverse: \.adminOf)
    public var admins: [User]?
}

@EntityModel
public struct Message: Codable {
    /// Messages are searched by their text (`relata-demo search WORDS`).
    @FullTextIndex<Self>(\.text) private var textIndex

    public let id: String
    public let text: String

    @Relationship(.required)
    public var author: User?

    @Relationship(.required, inverse: \.messages)
    public var chat: Chat?

    @Relationship(deleteRule: .cascade, inverse: \.message)
    public var attachment: Attachment?

    @Relationship(inverse: \.replyTo)
    public var replies: [Message]?

    @Relationship(inverse: \.replies)
    public var replyTo: Message?

    @Relationship
    public var viewedBy: [User]? = nil
}

@EntityModel
public struct Attachment: Codable {
    public let id: String
    public var kind: Kind

    @Relationship(.required, inverse: \.attachment)
    public var message: Message?

    public enum Kind: Codable, Sendable {
        case image(url: URL)
        case file(url: URL)
    }
}
