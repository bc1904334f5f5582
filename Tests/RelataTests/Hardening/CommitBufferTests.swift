import Foundation
import Relata
import Testing

/// A `store.commits` subscriber that stops reading never makes the store buffer without limit:
/// it keeps its newest unread commits only, and learns what it missed from one `.reload` commit.
@Suite("Hardening: bounded commit buffers")
struct CommitBufferTests {
    /// Waits until the store's observers were handed every commit up to `chats` chats (the hub
    /// hands commits to subscribers, then to observers, in order, on its own queue).
    static func settle(_ store: Store, chats: Int) async throws {
        for try await count in store.observe({ $0.count(of: Chat.self) }) where count >= chats { break }
    }

    /// Writes `count` chats, one commit each; returns their sequences.
    static func write(_ count: Int, to store: Store) async throws -> [Int64] {
        var sequences: [Int64] = []
        for i in 0..<count {
            try await store.write { try Chat(id: "c\(i)").save(to: &$0) }
            sequences.append(store.sequence)
        }
        return sequences
    }

    @Test("A subscriber 45 commits behind a limit of 5: one .reload commit telling of the 45 it missed, then the newest 5 in order")
    func fellBehind() async throws {
        let store = try await Store.inMemory(entities: User.self, Chat.self, Message.self, Attachment.self)
        let commits = store.commits(bufferingLimit: 5).makeAsyncIterator()
        let sequences = try await Self.write(50, to: store)
        try await Self.settle(store, chats: 50)
        let gap = try #require(await commits.next())
        #expect(gap.kind == .reload && gap.droppedCommits == 45)
        #expect(gap.sequence == sequences[44], "the newest commit missed")
        #expect(gap.delta.storedIDs(of: Chat.self).isEmpty)
        var rest: [Int64] = []
        for _ in 0..<5 {
            let commit = try #require(await commits.next())
            #expect(commit.kind == .local && commit.droppedCommits == 0)
            rest.append(commit.sequence)
        }
        #expect(rest == Array(sequences.suffix(5)))
        // Reading on: nothing more was dropped, nothing more is told.
        try await store.write { try Chat(id: "last").save(to: &$0) }
        let next = try #require(await commits.next())
        #expect(next.kind == .local && next.delta.storedIDs(of: Chat.self) == ["last"])
    }

    @Test("The default limit keeps 100 unread commits: 1,000 commits unread leave 100 and one gap")
    func defaultLimit() async throws {
        #expect(StoreCommits.defaultBufferingLimit == 100)
        let store = try await Store.inMemory(entities: User.self, Chat.self, Message.self, Attachment.self)
        let commits = store.commits.makeAsyncIterator()
        let sequences = try await Self.write(1_000, to: store)
        try await Self.settle(store, chats: 1_000)
        let gap = try #require(await commits.next())
        #expect(gap.kind == .reload && gap.droppedCommits == 900)
        var read = 0
        var last: Int64 = 0
        while read < 100, let commit = await commits.next() {
            read += 1
            last = commit.sequence
        }
        #expect(read == 100 && last == sequences.last)
    }
}
