import Foundation
import PropertyBased
import Relata
@testable import RelataCore
import Testing

/// `observeChanges(of:_:)` reports an ordered relation's changes as index paths: applying each
/// change's deletions and insertions to the list before gives the list after, for random
/// inserts, appends, moves, deletes, edits and whole replacements, one commit or several at a
/// time.
@Suite("Store: list changes of an ordered relation (property-based)", .timeLimit(.minutes(2)))
struct ListChangePropertyTests {
    static func apply(_ code: Int, to context: inout Context) {
        let chat = Chat(id: "c")
        let list = context.ids(of: "c", \Chat.$messages)
        let r = code / 8
        let message = "m\(r % 24)"
        switch code % 8 {
        case 0, 1:
            try? Message(id: message, text: "new", author: .id("u"), chat: .id("c")).save(to: &context)
        case 2:
            try? chat.insert(Message(id: message, text: "inserted", author: .id("u")), into: \.$messages, at: r % (list.count + 1), in: &context)
        case 3:
            if !list.isEmpty { try? chat.move(list[r % list.count], in: \.$messages, to: (r / 7) % list.count, in: &context) }
        case 4:
            if !list.isEmpty { try? Message.delete(id: list[r % list.count], from: &context) }
        case 5:
            // An edit: the same message saved with another text (its links untouched: `.none`).
            if !list.isEmpty { try? Message(id: list[r % list.count], text: "edited \(r)", author: .id("u")).save(to: &context) }
        case 6:
            try? Chat(id: "c", messages: .ids(Array(list.shuffled().prefix(r % (list.count + 1))))).save(to: &context)
        default:
            try? Message(id: message, text: "elsewhere", author: .id("u"), chat: .id("other")).save(to: &context)
        }
    }

    /// The list `start` brought forward by each change `changes` gives, until one inserts the
    /// message "end" (the last append); each change checked on the way: its count is the list
    /// it leaves, its indexes sorted and in range, its moves from deletions to insertions.
    static func follow(_ changes: StoreObservation<ListChange<String>>.Iterator, from start: [String]) async -> [String]? {
        var seen = start
        while !seen.contains("end") {
            guard let change = try? await changes.next() else {
                Issue.record("the changes ended before the last append")
                return nil
            }
            let next = change.applied(to: seen)
            #expect(next.count == change.count, "a change's count is the list it leaves")
            #expect(change.deletions == change.deletions.sorted() && Set(change.deletions).count == change.deletions.count)
            #expect(change.insertions == change.insertions.sorted() && change.insertions.allSatisfy { $0 < change.count })
            #expect(change.modifications.allSatisfy { $0 < change.count && !change.insertions.contains($0) })
            #expect(change.moves.allSatisfy { seen[$0.from] == next[$0.to] && change.deletions.contains($0.from) })
            seen = next
        }
        return seen
    }

    @Test("Each change applied to the list before gives the list after; modifications name edited elements only")
    func changesApply() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...100_000).array(of: 1...50)) { codes in
            let store = try await Store.inMemory(entities: User.self, Chat.self, Message.self, Attachment.self)
            _ = try? await store.write { try Chat(id: "c").save(to: &$0) }
            let changes = store.observeChanges(of: \Chat.$messages, "c").makeAsyncIterator()
            guard let first = try? await changes.next() else {
                Issue.record("no initial value")
                return
            }
            #expect(first.isInitial && first.count == 0)
            var rest = codes[...]
            while !rest.isEmpty {
                let batch = Array(rest.prefix(1 + rest.first! % 4))
                rest = rest.dropFirst(batch.count)
                _ = try? await store.write { context in
                    for code in batch { Self.apply(code, to: &context) }
                }
            }
            // A last append, to know when every change has arrived.
            _ = try? await store.write { try Message(id: "end", text: "end", author: .id("u"), chat: .id("c")).save(to: &$0) }
            let final = store.context.ids(of: "c", \Chat.$messages)
            #expect(await Self.follow(changes, from: first.applied(to: [])) == final, "the changes applied in turn give the list")
        }
    }

    @Test("An edit of one element is a modification at its index; a move is a deletion and an insertion")
    func editAndMove() async throws {
        let store = try await Store.inMemory(entities: User.self, Chat.self, Message.self, Attachment.self)
        try await store.write { context in
            for i in 0..<5 { try Message(id: "m\(i)", text: "\(i)", author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        let changes = store.observeChanges(of: \Chat.$messages, "c").makeAsyncIterator()
        let initial = try #require(try await changes.next())
        #expect(initial.applied(to: []) == ["m0", "m1", "m2", "m3", "m4"])
        try await store.write { try Message(id: "m2", text: "edited", author: .id("u"), chat: .id("c")).save(to: &$0) }
        let edit = try #require(try await changes.next())
        #expect(edit.modifications == [2] && edit.deletions.isEmpty && edit.insertions.isEmpty)
        try await store.write { try Chat(id: "c").move("m4", in: \.$messages, to: 0, in: &$0) }
        let move = try #require(try await changes.next())
        #expect(move.deletions == [4] && move.insertions == [0])
        #expect(move.moves == [ListChange<String>.Move(from: 4, to: 0)])
        #expect(move.applied(to: ["m0", "m1", "m2", "m3", "m4"]) == ["m4", "m0", "m1", "m2", "m3"])
        // A message of another chat changes nothing here.
        try await store.write { try Message(id: "x", text: "x", author: .id("u"), chat: .id("d")).save(to: &$0) }
        try await store.write { try Message.delete(id: "m0", from: &$0) }
        let delete = try #require(try await changes.next())
        #expect(delete.deletions == [1] && delete.insertions.isEmpty)
    }

    @Test("Changes another store commits arrive as changes too: applied in turn, they give the list")
    func changesFromAnotherStore() async {
        await propertyCheck(count: 30, input: Gen.int(in: 0...100_000).array(of: 1...40)) { codes in
            let backend = InMemoryBackend()
            let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)
            guard let observed = try? await Store(backend: backend, schema: schema, followInterval: nil),
                let other = try? await Store(backend: backend, schema: schema, followInterval: nil)
            else {
                Issue.record("cannot open")
                return
            }
            _ = try? await other.write { try Chat(id: "c").save(to: &$0) }
            try? await observed.refresh()
            let changes = observed.observeChanges(of: \Chat.$messages, "c").makeAsyncIterator()
            // A query observer of the same list, with each message's text.
            let values = observed.observe { context in
                Chat.query("c", in: context).related(\.$messages).resolve().map { "\($0.id) \($0.text)" }
            }.makeAsyncIterator()
            guard let first = try? await changes.next() else {
                Issue.record("no initial value")
                return
            }
            var rest = codes[...]
            while !rest.isEmpty {
                let batch = Array(rest.prefix(1 + rest.first! % 4))
                rest = rest.dropFirst(batch.count)
                _ = try? await other.write { context in
                    for code in batch { Self.apply(code, to: &context) }
                }
                // Sometimes several commits reach the observed store together.
                if batch.count % 2 == 0 { try? await observed.refresh() }
            }
            _ = try? await other.write { try Message(id: "end", text: "end", author: .id("u"), chat: .id("c")).save(to: &$0) }
            try? await observed.refresh()
            let final = other.context.ids(of: "c", \Chat.$messages)
            #expect(await Self.follow(changes, from: first.applied(to: [])) == final, "the changes applied in turn give the list")
            let texts = other.context.ids(of: "c", \Chat.$messages).map { "\($0) \(other.context.entity(Message.self, id: $0)?.text ?? "")" }
            var value: [String]? = []
            while value?.last != "end end", let next = try? await values.next() { value = next }
            #expect(value == texts, "the query observer's last value is the list with its texts")
        }
    }

}
