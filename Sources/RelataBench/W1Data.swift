import Foundation
import Relata

/// The W1 data set at scale S, as the values a user would save.
struct W1Data {
    let scale: Double
    let userCount: Int
    let chatCount: Int
    let messageCount: Int
    let users: [User]
    let chats: [Chat]
    let messages: [Message]

    init(scale: Double) {
        self.scale = scale
        userCount = Int(1_000 * scale)
        chatCount = Int(1_000 * scale)
        messageCount = Int(100_000 * scale)
        let (u, c) = (userCount, chatCount)
        users = (0..<u).map { User(id: "u\($0)", name: "User \($0)") }
        chats = (0..<c).map { i in
            let members = W1Data.members(chat: i, userCount: u)
            return Chat(id: "c\(i)", users: .ids(members), admins: .ids([members[0]]))
        }
        let url = URL(fileURLWithPath: "/files/attachment")
        messages = (0..<messageCount).map { j in
            let chat = j % c
            let author = W1Data.members(chat: chat, userCount: u)[j % 10]
            return Message(
                id: "m\(j)",
                text: "message \(j)",
                author: .id(author),
                chat: .id("c\(chat)"),
                attachment: j % 10 == 0 ? .relation(Attachment(id: "a\(j)", kind: .file(url: url))) : .none,
                replyTo: j % 5 == 1 && j >= c ? .id("m\(j - c)") : .none
            )
        }
    }

    /// The 10 members of chat i: `u<(i*7 + k*13) % U>` for k in 0..<10.
    static func members(chat i: Int, userCount: Int) -> [String] {
        (0..<10).map { k in "u\((i * 7 + k * 13) % userCount)" }
    }

    var description: String { "U=\(userCount) C=\(chatCount) M=\(messageCount)" }
}
