import Foundation
import Relata

// Workload W3's models (Benchmarks/README.md): W1's users, chats and messages with the four
// properties W3 searches and their indexes, declared as SwiftletModel declares them. They live in
// the benchmark's own module, as a user's models live in the user's program.

@EntityModel
struct W3User: Codable {
    @Unique<Self>(\.email, collisions: .throw) private var uniqueEmail
    @Index<Self>(\.age) private var ageIndex

    let id: String
    var name: String
    /// Unique: `user<i>@example.com`.
    var email: String
    /// Sorted: `18 + (i * 7) % 60`.
    var age: Int

    @Relationship(inverse: \.users)
    var chats: [W3Chat]?
}

@EntityModel
struct W3Chat: Codable {
    let id: String

    @Relationship(inverse: \.chats)
    var users: [W3User]?

    @Relationship(deleteRule: .cascade, inverse: \.chat)
    var messages: [W3Message]?
}

@EntityModel
struct W3Message: Codable {
    @FullTextIndex<Self>(\.text) private var textIndex
    @Index<Self>(\.sentAt) private var sentAtIndex
    @HashIndex<Self>(\.isRead) private var readIndex

    let id: String
    /// Full text.
    var text: String
    /// Sorted: the workload's first instant plus `j` seconds.
    var sentAt: Date
    /// Hashed: `j % 3 != 0`.
    var isRead: Bool

    @Relationship(.required)
    var author: W3User?

    @Relationship(.required, inverse: \.messages)
    var chat: W3Chat?
}
