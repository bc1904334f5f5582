import ArgumentParser
import ChatExample
import Foundation
import Relata
import RelataPostgres

/// `relata-demo search WORDS`: the messages whose text best matches the words (the full-text
/// index of `Message.text`, ranked as SwiftletModel ranks), with their chats and authors.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search the messages of the store: the best matches for the words, with their chats and authors.",
        discussion: """
            Matches as SwiftletModel's full-text index does: a message matches when its text shares a \
            three-character run of a word with the search (`1042` matches `message 104217`); the best \
            come first (BM25). On a SQLite store the search reads the store's table of trigrams and only \
            the best messages; the first open after the index is declared fills that table from the \
            stored messages.
            """
    )

    @Argument(help: "The words to search for.")
    var words: [String]

    @Option(help: "Where the store lives: a SQLite file (made by `relata-demo run`).")
    var path = "relata-demo.sqlite"

    @Option(help: "A PostgreSQL database to search instead of the file: postgres://user:password@host:port/database.")
    var postgres: String?

    @Option(help: "How many matches to show, 1 to 1000.")
    var limit = 20

    func validate() throws {
        guard (1...1_000).contains(limit) else { throw ValidationError("--limit must be 1 to 1000, not \(limit)") }
        guard words.contains(where: { $0.count >= 3 }) else {
            throw ValidationError("give a word of three characters or more: shorter ones match nothing")
        }
        if postgres == nil, !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("no store at \(path): make one with `relata-demo run`, or give --path")
        }
    }

    func run() async throws {
        let started = ContinuousClock.now
        let store =
            if let postgres {
                try await Store(postgres: postgres, entities: User.self, Chat.self, Message.self, Attachment.self, DemoRun.self)
            } else {
                try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self, DemoRun.self)
            }
        let opened = ContinuousClock.now
        let search = words.joined(separator: " ")
        let found = try await store.read { context in
            Message.query(in: context)
                .filter(.string(\.text, matches: search))
                .limit(limit)
                .with(\.$chat)
                .with(\.$author)
                .resolve()
        }
        let searched = ContinuousClock.now
        try await store.close()
        switch found.count {
        case 0: print("No message matches \"\(search)\".")
        case 1: print("The best match for \"\(search)\":")
        default: print("The \(found.count) best matches for \"\(search)\":")
        }
        for (rank, message) in found.enumerated() {
            let author = message.author?.name ?? "?"
            print("\(String(rank + 1).leftPadded(to: 3)). \(message.text)  — \(author), in chat \(message.chat?.id ?? "?") (message \(message.id))")
        }
        print("Opened in \((opened - started).shortText), searched in \((searched - opened).shortText).")
    }
}

extension String {
    /// The text with spaces before it, `width` characters at least.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
