import ArgumentParser
import ChatExample
import Foundation
import Relata
import RelataPostgres

/// relata-demo: the chat example of SwiftletModel's README, end to end, on a SQLite store file (`run`, the
/// default), and `watch`, which prints the commits other processes make to that file, live.
@main
struct RelataDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relata-demo",
        abstract: "The chat example of SwiftletModel's README, end to end, on a Relata store in a SQLite file.",
        subcommands: [ChatDemo.self, WatchCommand.self, SearchCommand.self],
        defaultSubcommand: ChatDemo.self
    )
}

/// The first run creates the store, bulk-loads a chat graph (showing progress) and queries it; a
/// second run opens the same file, reports what the first left there, and goes on from it.
struct ChatDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Save, load, query, reorder and relate the chat example on the store file (the default).",
        discussion: """
            The first run creates the store, saves the chat of SwiftletModel's README, bulk-loads a \
            larger chat graph and queries both. Later runs reopen the same store, say what earlier \
            runs left in it and go on from there; a run that was stopped mid-load is picked up \
            where it stopped.
            """
    )

    @Option(help: "Where the store lives: a SQLite file, created when missing.")
    var path = "relata-demo.sqlite"

    @Option(help: ArgumentHelp(
        "Keep the store in a PostgreSQL database instead of a file.",
        discussion: "A URL: postgres://user:password@host:port/database. The tables are created on first use.",
        valueName: "url"
    ))
    var postgres: String?

    @Flag(help: "Delete the store file first and start over with an empty store.")
    var reset = false

    @Option(help: "How many messages the first run bulk-loads (in writes of 1,000).")
    var messages = 20_000

    @Flag(help: "Print the README chat as JSON (SwiftletModel's plain shape) instead of a short summary.")
    var json = false

    @Flag(help: "Check, at the end, that every link has its other side (takes a moment on a large store).")
    var check = false

    func validate() throws {
        guard messages >= 0 else { throw ValidationError("--messages must be 0 or more, not \(messages)") }
        guard messages <= 100_000_000 else { throw ValidationError("--messages must be at most 100000000, not \(messages)") }
        if postgres == nil {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw ValidationError("--path \(path) is a directory, not a store file")
            }
        }
    }

    func run() async throws {
        let url = URL(fileURLWithPath: path)
        if reset, postgres == nil {
            // Only the store's own files, and only regular files (validate() refused a directory).
            for suffix in ["", "-wal", "-shm"] {
                let file = url.path + suffix
                let type = (try? FileManager.default.attributesOfItem(atPath: file))?[.type] as? FileAttributeType
                if type == .typeRegular { try FileManager.default.removeItem(atPath: file) }
            }
            print("Reset: removed \(url.path)")
        }
        let opening = ContinuousClock.now
        let store: Store
        if let postgres {
            print("Store: PostgreSQL database (--postgres)")
            store = try await Store(postgres: postgres, entities: User.self, Chat.self, Message.self, Attachment.self, DemoRun.self)
            if reset {
                // The database's store, emptied: every entity and link erased, in one commit.
                try await store.write { context in context = Context() }
                print("Reset: emptied the PostgreSQL store")
            }
        } else {
            print("Store file: \(url.path)  (override with --path, start over with --reset)")
            store = try await Store(path: url.path, entities: User.self, Chat.self, Message.self, Attachment.self, DemoRun.self)
        }
        print("Opened in \((ContinuousClock.now - opening).shortText)\n")

        let runs = store.context.ids(of: DemoRun.self).compactMap { store.context.entity(DemoRun.self, id: $0) }
            .sorted { $0.id < $1.id }
        if runs.isEmpty, store.context.count(of: User.self) == 0 {
            print("1. A new store: saving the README's chat, then bulk-loading \(messages) messages")
            try await saveReadmeChat(store)
            try await bulkLoad(store, from: 0)
        } else if runs.isEmpty {
            // No run finished, but something is stored: an earlier run stopped mid-load.
            let loaded = loadedBatches(store.context) * 1_000
            print("1. Reopened a store an earlier run left unfinished (stopped mid-load): \(counts(store.context))")
            print("   going on with the bulk load from message \(loaded)")
            if store.context.entity(Chat.self, id: "1") == nil { try await saveReadmeChat(store) }
            try await bulkLoad(store, from: loaded)
        } else {
            print("1. Found the store of \(runs.count) earlier run(s):")
            for run in runs { print("   run \(run.id) at \(run.date): \(run.summary)") }
            print("   now: \(counts(store.context))")
        }

        try await queryReadmeChat(store)
        try await bigGraph(store)

        let (next, overflow) = (runs.last?.id ?? 0).addingReportingOverflow(1)
        guard !overflow else {
            try await store.close()
            throw ValidationError("the store's last run is numbered \(Int.max): no run number is left (start over with --reset)")
        }
        let run = DemoRun(id: next, date: Date().formatted(.iso8601), summary: counts(store.context))
        try await store.save(run)
        // Dynamic relationships (BartlebysCore's): made at run time between any two entities, persisted.
        try await store.write { context in try run.relate(.free, Chat(id: "1"), in: &context) }
        let related = Chat(id: "1").related(.free, DemoRun.self, in: store.context).map(\.id)
        print("\n5. Dynamic relationships: chat 1 is freely related to run(s) \(related) (one more each run)")
        if check {
            let checking = ContinuousClock.now
            try store.context.checkInvariants()
            print("\nChecked: every link has its other side (\((ContinuousClock.now - checking).shortText)).")
        }
        try await store.close()
        print("\nRun \(run.id) recorded; run again to see the store reopened.")
    }

    func counts(_ context: Context) -> String {
        "\(context.count(of: User.self)) users, \(context.count(of: Chat.self)) chats, "
            + "\(context.count(of: Message.self)) messages, \(context.count(of: Attachment.self)) attachments"
    }

    func saveReadmeChat(_ store: Store) async throws {
        try await store.write { context in
            try Chat(
                id: "1",
                users: .relation([User(id: "1", name: "Bob"), User(id: "2", name: "Alice")]),
                messages: .relation([
                    Message(id: "1", text: "Any thoughts on Relata?", author: .id("1")),
                    Message(id: "2", text: "Yes.", author: .id("2"), replyTo: .id("1")),
                ]),
                admins: .ids(["1"])
            ).save(to: &context)
        }
    }

    /// How many writes of 1,000 messages an earlier bulk load committed: they commit in order,
    /// each whole, so they are a prefix — found by looking up a few messages (a binary search),
    /// never by reading them all.
    func loadedBatches(_ context: Context) -> Int {
        var (low, high) = (0, (max(messages, context.count(of: Message.self)) + 999) / 1_000)
        while low < high {
            let middle = (low + high) / 2
            if context.entity(Message.self, id: "m\(middle * 1_000)") != nil { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Users u0…u999, chats c0…c99 (10 members each), then messages from `first` on, in writes
    /// of 1,000 (saving is an upsert: loading again what is there changes nothing).
    func bulkLoad(_ store: Store, from first: Int) async throws {
        let start = ContinuousClock.now
        try await store.write { context in
            for i in 0..<1_000 { try User(id: "u\(i)", name: "User \(i)").save(to: &context) }
            for c in 0..<100 {
                try Chat(id: "c\(c)", users: .ids((0..<10).map { "u\((c * 7 + $0 * 13) % 1_000)" })).save(to: &context)
            }
        }
        let total = messages
        for batch in stride(from: first, to: total, by: 1_000) {
            let end = min(batch + 1_000, total)
            try await store.write { context in
                for m in batch..<end {
                    var message = Message(
                        id: "m\(m)", text: "message \(m)", author: .id("u\(m % 1_000)"), chat: .id("c\(m % 100)"),
                        replyTo: m % 5 == 1 && m >= 100 ? .id("m\(m - 100)") : .none
                    )
                    if m % 10 == 0 {
                        message.$attachment = .relation(Attachment(id: "a\(m)", kind: .image(url: URL(fileURLWithPath: "/img/\(m).png"))))
                    }
                    try message.save(to: &context)
                }
            }
            print("   loaded \(end)/\(total) messages (\((ContinuousClock.now - start).shortText))")
        }
        print("   bulk load: \((ContinuousClock.now - start).shortText) for \(total) messages in \((total + 999) / 1_000) writes")
    }

    func queryReadmeChat(_ store: Store) async throws {
        print("\n2. Bob, from the other end: chats, messages, replies (nested query on a snapshot)")
        let bob = try await store.read { context in
            User.query("1", in: context)
                .with(\.$chats) { chat in
                    chat.with(\.$messages) { message in
                        message.with(\.$replies) { $0.with(\.$author).id(\.$replyTo) }.id(\.$author).id(\.$chat)
                    }
                    .with(\.$users)
                    .id(\.$admins)
                }
                .resolve()
        }
        if json {
            let encoder = JSONEncoder.prettyPrinting
            encoder.relationEncodingStrategy = .plain
            print(bob.prettyDescription(with: encoder) ?? "")
        } else {
            print(summary(of: bob))
            print("   (--json prints it all as JSON)")
        }

        print("\n3. Background get and set of one relation")
        let page = store.context.count(of: "1", \Chat.$messages)
        try await store.set(
            \Chat.$messages, of: "1",
            to: .appending(relation: [Message(id: "page\(page)", text: "Page \(page)", author: .id("2"))])
        )
        print("   chat 1 messages: \(await store.get(\Chat.$messages, of: "1").map(\.text))")
    }

    /// A few lines for a resolved user: each chat with its members, and each message with its
    /// author and replies.
    func summary(of user: User?) -> String {
        guard let user else { return "   (user 1 is not stored)" }
        var lines = ["   \(user.name) is in \(user.chats?.count ?? 0) chat(s)"]
        for chat in user.chats ?? [] {
            let members = (chat.users ?? []).map(\.name).joined(separator: ", ")
            lines.append("   chat \(chat.id): \(members) — \(chat.messages?.count ?? 0) messages, admin(s) \(chat.$admins.ids)")
            for message in (chat.messages ?? []).prefix(3) {
                let replies = (message.replies ?? []).map { "\"\($0.text)\" by \($0.author?.name ?? "?")" }
                let answer = replies.isEmpty ? "" : ", answered \(replies.joined(separator: ", "))"
                lines.append("     \(message.id) by user \(message.$author.id ?? "?"): \"\(message.text)\"\(answer)")
            }
            if (chat.messages?.count ?? 0) > 3 { lines.append("     …") }
        }
        return lines.joined(separator: "\n")
    }

    func bigGraph(_ store: Store) async throws {
        print("\n4. The bulk-loaded graph: \(counts(store.context))")
        // What an app reads, whatever the store's size: a chat list (each chat with its newest
        // message) and one chat's screen (its newest page of messages), never every message.
        let listing = ContinuousClock.now
        let newest = try await store.read { context in
            (0..<100).compactMap { i -> Message? in
                guard let id = context.ids(of: "c\(i)", \Chat.$messages, page: .last(1)).first else { return nil }
                return Message.query(id, in: context).with(\.$author).resolve()
            }
        }
        print("   chat list: \(newest.count) chats with their newest message in \((ContinuousClock.now - listing).shortText)")
        let paging = ContinuousClock.now
        let page = try await store.read { context in
            Message.query(context.ids(of: "c0", \Chat.$messages, page: .last(20)), in: context)
                .with(\.$author).with(\.$attachment)
                .resolve()
        }
        guard let last = page.last else { return }
        print("   chat c0's latest \(page.count) messages in \((ContinuousClock.now - paging).shortText); the newest: \(last.id) by \(last.author?.name ?? "?"): \"\(last.text)\"")
        try await store.write { context in try Chat(id: "c0").move(last.id, in: \.$messages, to: 0, in: &context) }
        print("   moved \(last.id) to the front of c0: \(store.context.ids(of: "c0", \Chat.$messages, page: .first(3)))…")
    }

}

/// One run of the demo, kept in the store so the next run can report it.
@EntityModel
struct DemoRun: Codable {
    let id: Int
    var date: String
    var summary: String
}
