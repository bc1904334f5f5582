import Foundation
import Relata
import Synchronization

/// A backend whose next persist fails, once: what a full disk or a lost connection looks like.
final class FailingOnce: StorageBackend {
    let wrapped: any StorageBackend
    let failNext = Mutex(false)
    let persisted = Mutex<[StoreChanges]>([])

    init(_ wrapped: any StorageBackend) {
        self.wrapped = wrapped
    }

    func read<T>(_ body: (any StorageReader) throws -> T) throws -> T {
        try wrapped.read(body)
    }

    func write<T>(_ body: (any StorageTransaction) throws -> T) throws -> T {
        try wrapped.write { transaction in
            try body(
                InterceptedTransaction(transaction) { changes, origin in
                    if self.failNext.withLock({ fail in defer { fail = false }; return fail }) {
                        throw RelataError(code: .storageFailed, entityType: "Store", message: "the conformance suite failed this write")
                    }
                    let sequence = try transaction.persist(changes, origin: origin)
                    self.persisted.withLock { $0.append(changes) }
                    return sequence
                })
        }
    }

    func hasNewCommits() throws -> Bool { try wrapped.hasNewCommits() }

    func close() throws { try wrapped.close() }
}

extension StoreConformance {
    static let writeChecks: [Check] = [
        Check(name: "A write whose closure throws changes nothing, in memory or in storage") { storage in
            struct Midway: Error {}
            let store = try await open(storage)
            try await store.write { try saveTeam(&$0) }
            let before = Snapshot.text(store.context)
            do {
                try await store.write { context in
                    try Team.delete(id: "t", from: &context)
                    try Member(id: "m9", name: "Nine").save(to: &context)
                    throw Midway()
                }
            } catch is Midway {}
            try expect(Snapshot.text(store.context) == before, "the failed write changed the state")
            try await store.write { context in try Member(id: "m9", name: "Nine").save(to: &context) }
            let reopened = try await reopen(store, storage, "after a failed and a good write")
            try expect(reopened.context.entity(Post.self, id: "p1") != nil, "the failed write's cascade is not stored")
        },
        Check(name: "A write the backend fails changes nothing, reports storageFailed, and the store goes on") { storage in
            let backend = FailingOnce(try storage())
            let store = try await Store(backend: backend, schema: ConformanceModels.schema)
            try await store.write { try saveTeam(&$0) }
            let before = Snapshot.text(store.context)
            backend.failNext.withLock { $0 = true }
            do {
                try await store.write { context in try Team.delete(id: "t", from: &context) }
                throw ConformanceFailure(description: "the failed persist was not reported")
            } catch let error as RelataError {
                try expect(error.code == .storageFailed, "storageFailed, not \(error.code)")
            }
            try expect(Snapshot.text(store.context) == before, "the failed write changed the state")
            try await store.write { context in try Post.delete(id: "p2", from: &context) }
            let reopened = try await reopen(store, storage, "after a failed and a good write")
            try expect(reopened.context.entity(Post.self, id: "p1") != nil, "the failed write is not stored")
            try expect(reopened.context.entity(Post.self, id: "p2") == nil, "the write after it is")
        },
        Check(name: "Each write persists what it changed, and a write that changes nothing persists nothing") { storage in
            let backend = FailingOnce(try storage())
            let store = try await Store(backend: backend, schema: ConformanceModels.schema)
            try await store.write { try saveTeam(&$0) }
            try await store.set(\Team.$members, of: "t", to: .appending(ids: ["m9"]))
            let append = backend.persisted.withLock { $0.last }
            try expect(append?.count == 1, "an append writes one row, not \(append?.count ?? 0)")
            try await store.write { _ in }
            try expect(backend.persisted.withLock { $0.count } == 2, "a write that changes nothing persists nothing")
            try await store.close()
        },
        Check(name: "200 concurrent writers lose nothing; readers never see half a write") { storage in
            let store = try await open(storage)
            try await store.save(Team(id: "t"))
            let torn = Flag()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<200 {
                    group.addTask { try await store.set(\Team.$members, of: "t", to: .appending(ids: ["m\(i)"])) }
                }
                group.addTask {
                    var seen = 0
                    while seen < 200 {
                        let context = store.context
                        let members = context.ids(of: "t", \Team.$members)
                        if members.count < seen || !members.allSatisfy({ context.ids(of: $0, \Member.$teams) == ["t"] }) {
                            torn.set()
                        }
                        seen = members.count
                        await Task.yield()
                    }
                }
                try await group.waitForAll()
            }
            try expect(!torn.isSet, "a reader saw half a write, or an older state after a newer one")
            let reopened = try await reopen(store, storage, "after 200 writers")
            try expect(Set(reopened.context.ids(of: "t", \Team.$members)).count == 200, "200 members")
        },
        Check(name: "A new read sees another store's commit at once, whatever its store cached (commitToken changes with every commit, or is nil)") { storage in
            let reader = try await open(storage)
            let writer = try await open(storage)
            for round in 0..<5 {
                // The reader's cache holds the row as it is now; the other store then changes it.
                _ = try await reader.read { $0.entity(Member.self, id: "m") }
                try await writer.save(Member(id: "m", name: "v\(round)"))
                let read = try await reader.read { $0.entity(Member.self, id: "m")?.name }
                try expect(read == "v\(round)", "round \(round): a new read answered \(read ?? "nothing"), not the other store's commit")
            }
            try await writer.close()
            try await reader.close()
        },
        Check(name: "A closed store refuses writes with storeClosed") { storage in
            let store = try await open(storage)
            try await store.close()
            do {
                try await store.save(Bill(id: "b"))
                throw ConformanceFailure(description: "a closed store accepted a write")
            } catch let error as RelataError {
                try expect(error.code == .storeClosed, "storeClosed, not \(error.code)")
            }
        },
    ]
}

/// A flag set from any task.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
