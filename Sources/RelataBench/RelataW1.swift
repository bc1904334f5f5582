import Relata

/// W1 operations 1–4 on Relata.
enum RelataW1 {
    static func save(_ data: W1Data) throws -> Context {
        var context = Context()
        for user in data.users { try user.save(to: &context) }
        for chat in data.chats { try chat.save(to: &context) }
        for message in data.messages { try message.save(to: &context) }
        return context
    }

    /// Chats c0…c99 with messages (attachment, author id, replies) and users; returns messages resolved.
    static func resolve(_ context: Context, chats: Int) -> Int {
        resolve(context, chats: 0..<chats)
    }

    /// The chats of `chats` (by number) resolved as ``resolve(_:chats:)-(_,Int)`` does.
    static func resolve(_ context: Context, chats: Range<Int>) -> Int {
        var count = 0
        for i in chats {
            let chat = Chat.query("c\(i)", in: context)
                .with(\.$messages) { message in
                    message.with(\.$attachment).id(\.$author).with(\.$replies)
                }
                .with(\.$users)
                .resolve()
            count += chat?.messages?.count ?? 0
        }
        return count
    }

    /// For every user, the ids of its chats; returns the sum of the counts.
    static func related(_ context: Context, users: Int) -> Int {
        var sum = 0
        for i in 0..<users {
            sum += User.query("u\(i)", in: context).related(\.$chats).ids.count
        }
        return sum
    }

    /// Deletes chats c0…c99, cascading to their messages and attachments, in one call (over
    /// storage, what the deletions read is read for all of them at once).
    static func delete(_ context: inout Context, chats: Int) throws {
        try Chat.delete(ids: (0..<chats).map { "c\($0)" }, from: &context)
    }
}
