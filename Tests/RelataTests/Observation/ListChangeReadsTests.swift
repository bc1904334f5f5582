import Foundation
import Relata
@testable import RelataCore
@testable import RelataSQLite
import Testing

/// What an observer of a list's changes reads: the list once, for its first value; after this
/// store's own commits nothing of it — whatever its length — so one append reaches the observer
/// without the list being read again.
@Suite("Store: list changes read the list once", .timeLimit(.minutes(2)))
struct ListChangeReadsTests {
    @Test("After the first value, a change for this store's own append reads no row of the list, whatever its length")
    func appendReadsNothing() async throws {
        var rowsPerChange: [Int] = []
        for messages in [10, 2_000] {
            let harness = try StoreHarness(.sqlite)
            defer { harness.remove() }
            let backend = try SQLiteBackend(path: harness.path)
            let store = try await Store(backend: backend, schema: StoreHarness.schema, followInterval: nil)
            try await store.write { context in
                for m in 0..<messages { try Message(id: "m\(m)", text: "t\(m)", author: .id("u0"), chat: .id("c0")).save(to: &context) }
            }
            let changes = store.observeChanges(of: \Chat.$messages, "c0").makeAsyncIterator()
            let first = try #require(try await changes.next())
            #expect(first.isInitial && first.count == messages)
            var list = first.applied(to: [])
            for k in 0..<3 {
                let rowsBefore = backend.rowsReadCount
                try await store.write { try Message(id: "x\(k)", text: "", author: .id("u0"), chat: .id("c0")).save(to: &$0) }
                let change = try #require(try await changes.next())
                rowsPerChange.append(backend.rowsReadCount - rowsBefore)
                #expect(change.insertions == [messages + k] && change.insertedIDs == ["x\(k)"] && change.deletions.isEmpty)
                list = change.applied(to: list)
            }
            #expect(list == store.context.ids(of: "c0", \Chat.$messages), "the changes give the stored list")
            try await store.close()
        }
        // The write reads a few rows (the list's tail, the chat); the observer none.
        #expect(rowsPerChange.allSatisfy { $0 < 10 }, "rows read per append and its change: \(rowsPerChange)")
    }
}
