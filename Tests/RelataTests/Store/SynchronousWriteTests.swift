import Dispatch
import Foundation
import Relata
import Synchronization
import Testing

/// `try store.write { … }` outside `async` code: the write runs on the calling thread, after the
/// writes called before it, and persists exactly as `try await store.write { … }` does.
@Suite("Store: synchronous writes on the calling thread")
struct SynchronousWriteTests {
    /// Saves message `id` to chat `chat` with the synchronous write (a function that is not
    /// `async` picks it), returning what the closure returns.
    static func append(_ store: Store, id: String, chat: String = "c") throws -> Int {
        try store.write { context in
            try Message(id: id, text: id, author: .id("u"), chat: .id(chat)).save(to: &context)
            return context.ids(of: chat, \Chat.$messages).count
        }
    }

    /// Calls the synchronous write from `body`'s thread, as code that is not `async` does.
    static func synchronously<T>(_ body: () throws -> T) throws -> T { try body() }

    @Test("A synchronous write commits like an awaited one: its result, reads, another store and a reopened one see it", arguments: BackendKind.allCases)
    func commits(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        try await store.write { try User(id: "u", name: "Ada").save(to: &$0) }
        let commits = store.commits.makeAsyncIterator()
        #expect(try Self.append(store, id: "m0") == 1)
        #expect(try Self.append(store, id: "m1") == 2)
        #expect(try await store.read { $0.ids(of: "c", \Chat.$messages) } == ["m0", "m1"])
        // Observers get both commits, in order.
        var seen: [Int64] = []
        for _ in 0..<2 { seen.append(try #require(await commits.next()).sequence) }
        #expect(seen == seen.sorted() && seen.last == store.sequence)
        try await store.close()
        let reopened = try await harness.open()
        #expect(try await reopened.read { $0.ids(of: "c", \Chat.$messages) } == ["m0", "m1"])
        #expect(try await reopened.read { $0.entity(Message.self, id: "m1")?.text } == "m1")
        try await reopened.close()
    }

    @Test("Synchronous writes from several threads and awaited writes at once: none lost, each thread's in its call order", arguments: BackendKind.allCases)
    func concurrentWriters(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        try await store.write { try User(id: "u", name: "Ada").save(to: &$0) }
        let threads = 4, perThread = 25
        async let awaited: Void = {
            for index in 0..<perThread {
                try await store.write { try Message(id: "a\(index)", text: "", author: .id("u"), chat: .id("c")).save(to: &$0) }
            }
        }()
        let failures = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let failures = Mutex<[String]>([])
                DispatchQueue.concurrentPerform(iterations: threads) { thread in
                    for index in 0..<perThread {
                        do { _ = try Self.append(store, id: "t\(thread)-\(index)") } catch {
                            failures.withLock { $0.append("\(error)") }
                        }
                    }
                }
                continuation.resume(returning: failures.withLock { $0 })
            }
        }
        try await awaited
        #expect(failures.isEmpty)
        let stored = try await store.read { $0.ids(of: "c", \Chat.$messages) }
        #expect(stored.count == (threads + 1) * perThread)
        #expect(Set(stored).count == stored.count)
        for prefix in (0..<threads).map({ "t\($0)-" }) + ["a"] {
            let mine = stored.filter { $0.hasPrefix(prefix) }.map { Int($0.dropFirst(prefix.count))! }
            #expect(mine == Array(0..<perThread), "\(prefix): \(mine)")
        }
        try await store.close()
    }

    @Test("A synchronous write inside a write's closure throws reentrantWrite instead of waiting for itself; the enclosing write commits", arguments: BackendKind.allCases)
    func reentrantWrite(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        try await store.write { try User(id: "u", name: "Ada").save(to: &$0) }
        let innerError = try await store.write { context -> String? in
            try Message(id: "outer", text: "", author: .id("u"), chat: .id("c")).save(to: &context)
            do {
                _ = try Self.append(store, id: "inner")
                return nil
            } catch let error as RelataError {
                return error.code == .reentrantWrite ? "\(error.code)" : "\(error)"
            }
        }
        #expect(innerError == "reentrantWrite")
        // The same inside a synchronous write.
        let nested = try Self.synchronously {
            try store.write { _ -> RelataError.Code? in
                do { _ = try Self.append(store, id: "inner2") } catch let error as RelataError { return error.code }
                return nil
            }
        }
        #expect(nested == .reentrantWrite)
        #expect(try await store.read { $0.ids(of: "c", \Chat.$messages) } == ["outer"])
        try await store.close()
    }

    @Test("A synchronous write whose closure throws writes nothing, and the store goes on", arguments: BackendKind.allCases)
    func throwingClosure(kind: BackendKind) async throws {
        struct Refused: Error {}
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        try await store.write { try User(id: "u", name: "Ada").save(to: &$0) }
        let before = store.sequence
        #expect(throws: Refused.self) {
            try store.write { context in
                try Message(id: "m0", text: "", author: .id("u"), chat: .id("c")).save(to: &context)
                throw Refused()
            }
        }
        #expect(store.sequence == before)
        #expect(try await store.read { $0.entity(Message.self, id: "m0") } == nil)
        #expect(try Self.append(store, id: "m1") == 1)
        try await store.close()
        #expect(throws: RelataError.self) { try Self.append(store, id: "m2") }
    }
}
