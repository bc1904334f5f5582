import Foundation
import Observation
import Relata
@testable import RelataCore
import Testing

/// `LiveQuery` is an `@Observable` object: Observation's `withObservationTracking` sees its value
/// change after a commit, on the main actor, and releasing it stops the observation.
@Suite("LiveQuery (Observation)", .timeLimit(.minutes(1)))
@MainActor
struct LiveQueryTests {
    @Test("The value is current at once and changes after a commit; observation tracking is told")
    func tracksCommits() async throws {
        let store = try await Store.inMemory(entities: User.self, Chat.self, Message.self, Attachment.self)
        try await store.write { try User(id: "a", name: "Ann").save(to: &$0) }
        let users = LiveQuery(store) { context in context.ids(of: User.self).sorted() }
        #expect(users.value == ["a"])
        await withCheckedContinuation { (changed: CheckedContinuation<Void, Never>) in
            withObservationTracking {
                _ = users.value
            } onChange: {
                changed.resume()
            }
            Task { try await store.write { try User(id: "b", name: "Bob").save(to: &$0) } }
        }
        while users.value != ["a", "b"] { await Task.yield() }
        #expect(users.value == ["a", "b"])
    }

    @Test("Releasing the object stops its observation")
    func releaseStops() async throws {
        let store = try await Store.inMemory(entities: User.self, Chat.self, Message.self, Attachment.self)
        var users: LiveQuery<Int>? = LiveQuery(store) { $0.count(of: User.self) }
        while store.writer.observers.observerCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(users?.value == 0)
        users = nil
        while store.writer.observers.observerCount > 0 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(store.writer.observers.observerCount == 0)
    }

    @Test("A filtered, sorted, limited query stays current as entities start and stop matching")
    func filteredQuery() async throws {
        let store = try await Store.inMemory(entities: User.self, Chat.self, Message.self, Attachment.self)
        try await store.write { context in
            for name in ["Ann", "Bob", "Abe"] { try User(id: name, name: name).save(to: &context) }
        }
        let names = LiveQuery(store) { context in
            User.query(in: context).filter(.string(\.name, hasPrefix: "A")).sorted(by: \.name).limit(2).resolve().map(\.name)
        }
        #expect(names.value == ["Abe", "Ann"])
        try await store.write { try User(id: "Aaron", name: "Aaron").save(to: &$0) }
        while names.value != ["Aaron", "Abe"] { await Task.yield() }
        try await store.write { try User(id: "Aaron", name: "Zed").save(to: &$0) }
        while names.value != ["Abe", "Ann"] { await Task.yield() }
        #expect(names.value == ["Abe", "Ann"])
    }
}
