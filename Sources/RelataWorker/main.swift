// A child process for the tests of stores shared between processes (and their benchmark): each
// command opens the SQLite store at <path> (or, for a postgres:// URL, the PostgreSQL store it
// names; a "#schema" suffix picks the schema) with the chat models, does one job and prints what
// it did, one line at a time (flushed at once, so a killed process loses nothing it printed).
//
//     relata-worker append <path> <name> <count>   appends <count> messages "<name>-<i>" to chat
//                                                  "c", one write each, while the chat exists
//     relata-worker pairs <path> <name> <count>    saves messages "<name>-<i>-a" and "-b" to chat "c"
//                                                  in one write each, <count> times, printing
//                                                  "saved <i>"; a write that throws prints
//                                                  "failed <i> <error code>" and the next begins
//                                                  50 ms later (for faults: a server restart)
//     relata-worker churn <path> <rounds>          deletes chat "c" (its messages cascade) and
//                                                  saves it again, <rounds> times
//     relata-worker hold <path>                    saves message "held" inside a write and never
//                                                  returns from it (holds the write lock until killed)
//     relata-worker open <path>                    opens the store and prints its counts
//     relata-worker watch <path> <count>           prints each new message id as the store's
//                                                  follower sees it, until <count> are seen
//     relata-worker share <path> <threads> <reads> reads one `store.context` from <threads>
//                                                  threads at once, <reads> checked reads each
//                                                  (lookups, message ids, nested resolves) of
//                                                  chats "s<k>" holding messages "s<k>-<j>" in
//                                                  order, printing "done <wrong answers>"
//     relata-worker readers <path> <threads> <max> opens the store with <max> reader connections
//                                                  and calls the synchronous `store.read` from
//                                                  <threads> threads at once; prints "done <most
//                                                  descriptors open meanwhile> <open half a second
//                                                  later>", both counted from before the reads
//
// Each prints "ready" once the store is open, "done <n>" at the end, and "error <description>"
// (exit status 1) when something throws.

import ChatExample
import Foundation
import Relata
import RelataPostgres

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func open(_ path: String) async throws -> Store {
    if path.hasPrefix("postgres://") || path.hasPrefix("postgresql://") {
        let parts = path.split(separator: "#", maxSplits: 1).map(String.init)
        let configuration = PostgresBackend.Configuration(schema: parts.count == 2 ? parts[1] : "public")
        return try await Store(postgres: parts[0], configuration: configuration, entities: User.self, Chat.self, Message.self, Attachment.self)
    }
    return try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self)
}

func run(_ arguments: [String]) async throws {
    guard arguments.count >= 2 else { throw Usage() }
    let path = arguments[1]
    switch (arguments[0], arguments.count) {
    case ("append", 4):
        guard let count = Int(arguments[3]), count >= 0 else { throw Usage() }
        let store = try await open(path)
        say("ready")
        var appended = 0
        for i in 0..<count {
            let id = "\(arguments[2])-\(i)"
            let saved = try await store.write { context in
                guard context.entity(Chat.self, id: "c") != nil else { return false }
                try Message(id: id, text: "message \(i)", author: .id("u"), chat: .id("c")).save(to: &context)
                return true
            }
            if saved { appended += 1 }
        }
        say("done \(appended)")
    case ("pairs", 4):
        guard let count = Int(arguments[3]), count >= 0 else { throw Usage() }
        let store = try await open(path)
        say("ready")
        var saved = 0
        for i in 0..<count {
            do {
                try await store.write { context in
                    for half in ["a", "b"] {
                        try Message(id: "\(arguments[2])-\(i)-\(half)", text: "pair \(i)", author: .id("u"), chat: .id("c")).save(to: &context)
                    }
                }
                saved += 1
                say("saved \(i)")
            } catch let error as RelataError {
                say("failed \(i) \(error.code)")
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        say("done \(saved)")
    case ("churn", 3):
        guard let rounds = Int(arguments[2]), rounds >= 0 else { throw Usage() }
        let store = try await open(path)
        say("ready")
        for _ in 0..<rounds {
            try await store.write { context in try Chat.delete(id: "c", from: &context) }
            try await Task.sleep(for: .milliseconds(2))
            try await store.write { context in try Chat(id: "c").save(to: &context) }
        }
        say("done \(rounds)")
    case ("hold", 2):
        let store = try await open(path)
        say("ready")
        try await store.write { context in
            try Message(id: "held", text: "never committed", author: .id("u"), chat: .id("c")).save(to: &context)
            say("holding")
            while true { Thread.sleep(forTimeInterval: 1) }
        }
    case ("open", 2):
        let store = try await open(path)
        say("ready")
        let context = store.context
        say("done \(context.ids(of: Message.self).count) messages, \(context.ids(of: Chat.self).count) chats")
        try await store.close()
    case ("watch", 3):
        guard let count = Int(arguments[2]), count >= 0 else { throw Usage() }
        let store = try await open(path)
        var seen = Set(store.context.ids(of: Message.self))
        say("ready")
        var new = 0
        while new < count {
            try await Task.sleep(for: .milliseconds(1))
            for id in store.context.ids(of: Message.self) where seen.insert(id).inserted {
                new += 1
                say("seen \(id) \(Date().timeIntervalSince1970)")
            }
        }
        say("done \(new)")
    case ("share", 4):
        guard let threads = Int(arguments[2]), let reads = Int(arguments[3]), threads > 0, reads >= 0 else { throw Usage() }
        let store = try await open(path)
        say("ready")
        let wrong = await SharedContextReads(context: store.context).run(threads: threads, reads: reads)
        say("done \(wrong)")
    case ("readers", 4):
        guard let threads = Int(arguments[2]), let maxReaders = Int(arguments[3]), threads > 0 else { throw Usage() }
        let store = try await Store(path: path, maxReaders: maxReaders, entities: User.self, Chat.self, Message.self, Attachment.self)
        say("ready")
        let (peak, after) = try await DescriptorCount.during(threads: threads) {
            _ = try store.read { $0.ids(of: "c", \Chat.$messages) }
        }
        say("done \(peak) \(after)")
    default:
        throw Usage()
    }
}

struct Usage: Error, CustomStringConvertible {
    var description: String {
        "usage: relata-worker append <path> <name> <count> | pairs <path> <name> <count> | churn <path> <rounds> | hold <path> | open <path> | watch <path> <count> | share <path> <threads> <reads> | readers <path> <threads> <max>"
    }
}

do {
    try await run(Array(CommandLine.arguments.dropFirst()))
} catch {
    say("error \(error)")
    exit(1)
}
