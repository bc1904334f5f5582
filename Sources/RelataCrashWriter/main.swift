// The child process of the crash-safety test: opens the SQLite store at the path it is given and
// writes to it in a loop, printing the number of each write after it returns, until it is killed.
//
//     relata-crash-writer <path>
//
// Write n saves message "m<n>" in chat "c" (author "u<n % 7>"), links user "u<n % 7>" to the chat,
// and every third write deletes the message of three writes earlier and moves another one to the
// front: inserts, deletes and moves of both sides of mutual relations in one transaction.

import ChatExample
import Foundation
import Relata

/// Writes a line to standard output at once (no buffer to lose when killed).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: relata-crash-writer <path>\n".utf8))
    exit(2)
}
func run() async throws {
    let store = try await Store(path: CommandLine.arguments[1], entities: User.self, Chat.self, Message.self, Attachment.self)
    // Resume after the last write that committed: user "counter" holds the next number.
    var next = Int(store.context.entity(User.self, id: "counter")?.name ?? "0") ?? 0
    say("ready \(next)")
    while true {
        let n = next
        try await store.write { context in
            try User(id: "u\(n % 7)", name: "User \(n % 7)").save(to: &context)
            try Message(id: "m\(n)", text: "message \(n)", author: .id("u\(n % 7)"), chat: .id("c")).save(to: &context)
            try Chat(id: "c", users: .appending(ids: ["u\(n % 7)"])).save(to: &context)
            if n % 3 == 2 {
                try Message.delete(id: "m\(n - 3)", from: &context)
                if let first = context.ids(of: "c", \Chat.$messages).last {
                    try Chat(id: "c").move(first, in: \.$messages, to: 0, in: &context)
                }
            }
            try User(id: "counter", name: "\(n + 1)").save(to: &context)
        }
        say("\(n)")
        next = n + 1
    }
}

try await run()
