import ArgumentParser
import ChatExample
import Foundation
import Relata
import RelataPostgres

/// `relata-demo watch`: follows the store file and prints every commit it sees, live — run
/// `relata-demo` (or any program on the file) in another terminal.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the commits other processes make to the store file, as they land (Ctrl-C to stop).",
        discussion: """
            Opens the store like any other process and lets it follow the file: each commit of another \
            process (here, a relata-demo run in a second terminal) reaches this store's state within \
            milliseconds, without refresh(). Prints each commit as store.commits delivers it: what it \
            stored and erased, per type.
            """
    )

    @Option(help: "The store file (created if missing).")
    var path = "relata-demo.sqlite"

    @Option(help: "A PostgreSQL database to watch instead of the file: postgres://user:password@host:port/database.")
    var postgres: String?

    @Option(help: "Stop after this many seconds, more than 0 and at most a day (default: run until interrupted).")
    var seconds: Double?

    func validate() throws {
        if let seconds, !(seconds.isFinite && seconds > 0 && seconds <= 86_400) {
            throw ValidationError("--seconds must be a number of seconds more than 0 and at most 86400 (a day), not \(seconds)")
        }
    }

    func run() async throws {
        let store =
            if let postgres {
                try await Store(postgres: postgres, entities: User.self, Chat.self, Message.self, Attachment.self, DemoRun.self)
            } else {
                try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self, DemoRun.self)
            }
        print("Watching \(postgres == nil ? URL(fileURLWithPath: path).path : "the PostgreSQL database") at commit \(store.sequence): \(Self.describe(Self.counts(store.context)))")
        let watching = Task {
            for await commit in store.commits {
                print("\(Date().formatted(.iso8601.time(includingFractionalSeconds: true))) commit \(commit.sequence) (\(commit.kind)): \(Self.describe(commit.delta))")
            }
        }
        if let seconds {
            try await Task.sleep(for: .milliseconds(Int(seconds * 1_000)))
        } else {
            // Until interrupted.
            while true { try await Task.sleep(for: .seconds(3_600)) }
        }
        watching.cancel()
        try await store.close()
    }

    /// What a commit stored and erased, per type, and the links it added to or removed from chats.
    static func describe(_ delta: StoreDelta) -> String {
        var parts: [String] = []
        func count<Entity: EntityModelProtocol>(_ type: Entity.Type, _ name: String) {
            let stored = delta.storedIDs(of: type).count, erased = delta.erasedIDs(of: type).count
            if stored > 0 { parts.append("\(stored) \(name) stored") }
            if erased > 0 { parts.append("\(erased) \(name) erased") }
        }
        count(User.self, "users")
        count(Chat.self, "chats")
        count(Message.self, "messages")
        count(Attachment.self, "attachments")
        count(DemoRun.self, "runs")
        let links = delta.linkUpdates(\Chat.$messages)
        let linked = links.filter(\.isLinked).count
        if linked > 0 { parts.append("\(linked) messages linked into chats") }
        if links.count > linked { parts.append("\(links.count - linked) unlinked") }
        return parts.isEmpty ? "links only" : parts.joined(separator: ", ")
    }

    static func counts(_ context: Context) -> [(name: String, count: Int)] {
        [
            ("users", context.count(of: User.self)), ("chats", context.count(of: Chat.self)),
            ("messages", context.count(of: Message.self)), ("attachments", context.count(of: Attachment.self)),
            ("runs", context.count(of: DemoRun.self)),
        ]
    }

    static func describe(_ counts: [(name: String, count: Int)]) -> String {
        counts.map { "\($0.count) \($0.name)" }.joined(separator: ", ")
    }
}
