import ArgumentParser
import ChatExample
import Foundation
import Relata

/// `relata-demo watch`: follows the store file and prints every commit it sees, live — run
/// `relata-demo` (or any program on the file) in another terminal.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the commits other processes make to the store file, as they land (Ctrl-C to stop).",
        discussion: """
            Opens the store like any other process and lets it follow the file: each commit of another \
            process (here, a relata-demo run in a second terminal) reaches this store's state within \
            milliseconds, without refresh(). Prints what changed in the counts of each type.
            """
    )

    @Option(help: "The store file (created if missing).")
    var path = "relata-demo.sqlite"

    @Option(help: "Stop after this many seconds (default: run until interrupted).")
    var seconds: Double?

    func run() async throws {
        let store = try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self, DemoRun.self)
        var counts = Self.counts(store.context)
        var sequence = store.sequence
        print("Watching \(URL(fileURLWithPath: path).path) at commit \(sequence): \(Self.describe(counts))")
        let end = seconds.map { ContinuousClock.now + .milliseconds(Int($0 * 1_000)) }
        while end.map({ ContinuousClock.now < $0 }) ?? true {
            try await Task.sleep(for: .milliseconds(5))
            guard store.sequence != sequence else { continue }
            let now = Self.counts(store.context)
            let changes = zip(now, counts).compactMap { new, old -> String? in
                new.count == old.count ? nil : "\(old.name) \(old.count) → \(new.count)"
            }
            let time = Date().formatted(.iso8601.time(includingFractionalSeconds: true))
            print("\(time) commit \(store.sequence) (\(store.sequence - sequence) new): \(changes.isEmpty ? "entities changed in place" : changes.joined(separator: ", "))")
            counts = now
            sequence = store.sequence
        }
        try await store.close()
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
