import Foundation
import ChatExample
import Relata

// relata-demo: the chat example of the README, end to end, on an in-memory Context.
// (Persistence to SQLite arrives with the Store.)

func measure<T>(_ label: String, _ body: () throws -> T) rethrows -> T {
    let start = ContinuousClock.now
    let result = try body()
    print("  \(label): \(ContinuousClock.now - start)")
    return result
}

var context = Context()

print("1. Save a chat with its users and messages, given partly as entities, partly as ids")
let chat = Chat(
    id: "1",
    users: .relation([
        User(id: "1", name: "Bob"),
        User(id: "2", name: "Alice"),
    ]),
    messages: .relation([
        Message(id: "1", text: "Any thoughts on Relata?", author: .id("1")),
        Message(id: "2", text: "Yes.", author: .id("2"), replyTo: .id("1")),
    ]),
    admins: .ids(["1"])
)
try chat.save(to: &context)
print("  users: \(context.count(of: User.self)), messages: \(context.count(of: Message.self))")

print("\n2. Query Bob from the other end, with nested chats, messages and replies")
let bob = User
    .query("1", in: context)
    .with(\.$chats) { chat in
        chat.with(\.$messages) { message in
            message.with(\.$replies) { reply in
                reply.with(\.$author).id(\.$replyTo)
            }
            .id(\.$author)
            .id(\.$chat)
        }
        .with(\.$users)
        .id(\.$admins)
    }
    .resolve()
let encoder = JSONEncoder.prettyPrinting
encoder.relationEncodingStrategy = .plain
print(bob.prettyDescription(with: encoder) ?? "")

print("\n3. Incomplete data: a message without its chat does not unlink it; .null does")
try Message(id: "2", text: "Yes!", author: .id("2")).save(to: &context)
print("  message 2 chat after saving without it: \(context.ids(of: "2", \Message.$chat))")
var note = Message(id: "3", text: "See attached", author: .id("1"), chat: .id("1"))
note.$attachment = .relation(Attachment(id: "a1", kind: .file(url: URL(fileURLWithPath: "/tmp/notes.txt"))))
try note.save(to: &context)
print("  message 3 attachment: \(context.ids(of: "3", \Message.$attachment))")
note.$attachment = .null
try note.save(to: &context)
print("  after .null: \(context.ids(of: "3", \Message.$attachment)); attachment still stored: \(context.entity(Attachment.self, id: "a1") != nil)")

print("\n4. Pagination: append a page of messages to the chat")
try Chat(id: "1", messages: .appending(relation: [Message(id: "4", text: "Page 2", author: .id("2"))]))
    .save(to: &context)
print("  chat 1 messages: \(Chat.query("1", in: context).related(\.$messages).resolve().map(\.text))")

print("\n5. A bigger graph: 1,000 users, 100 chats, 20,000 messages")
var big = Context()
try measure("save") {
    for i in 0..<1_000 { try User(id: "u\(i)", name: "User \(i)").save(to: &big) }
    for c in 0..<100 {
        try Chat(id: "c\(c)", users: .ids((0..<10).map { "u\((c * 7 + $0 * 13) % 1_000)" })).save(to: &big)
    }
    for m in 0..<20_000 {
        try Message(id: "m\(m)", text: "message \(m)", author: .id("u\(m % 1_000)"), chat: .id("c\(m % 100)"))
            .save(to: &big)
    }
}
let resolved = measure("resolve 100 chats with messages and users") {
    Chat.query(in: big).with(\.$messages) { $0.id(\.$author) }.with(\.$users).resolve()
}
print("  resolved \(resolved.count) chats, \(resolved.reduce(0) { $0 + ($1.messages?.count ?? 0) }) messages")
try measure("delete chat c0 (cascades to its messages)") { try Chat.delete(id: "c0", from: &big) }
print("  messages left: \(big.count(of: Message.self))")
try big.checkInvariants()
print("\nAll links consistent. Done.")
