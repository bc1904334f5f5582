import Foundation
import Relata
@_spi(Paged) @testable import RelataCore
import Testing

/// A store write that erases entities reads their dynamic relationships only when storage holds
/// some (`StorageReader.holdsDynamicLinks()`, learned once per write): these check that what it
/// skips is never a relationship that is there.
@Suite("Erasures where storage holds no dynamic relationship")
struct StoredDynamicLinksTests {
    static let schema = DynamicRelationshipSyncTests.schema

    /// `a` erases while storage holds no dynamic relationship; `b` then relates a drawer to a
    /// sheet it owns; `a`'s next write erases the drawer, which must take the sheet with it.
    static func cascadeAfterAnotherStoreRelated(_ a: Store, _ b: Store) async throws {
        try await a.write { context in context = try DynamicRelationshipSyncTests.base() }
        try await a.write { try Tag(id: "red").delete(from: &$0) }
        try await b.write { try Drawer(id: "a").relate(.owns, Sheet(id: 1), in: &$0) }
        try await a.write { try Drawer(id: "a").delete(from: &$0) }
        #expect(a.context.entity(Sheet.self, id: 1) == nil, "the sheet the drawer owned went with it")
        #expect(a.context.entity(Sheet.self, id: 2) != nil)
        let other = b.context
        #expect(other.entity(Drawer.self, id: "a") == nil && other.entity(Sheet.self, id: 1) == nil, "b reads a's erasure")
        #expect(other.related(Sheet(id: 1).reference, .ownedBy).isEmpty)
    }

    @Test("A store that found none stored still cascades a relationship another store made since", arguments: BackendKind.allCases)
    func anotherStoresRelationship(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let a = try await harness.open(schema: Self.schema)
        let b = try await harness.open(schema: Self.schema)
        try await Self.cascadeAfterAnotherStoreRelated(a, b)
        try await a.close()
        try await b.close()
    }

    @Test("A write that relates and erases, with none stored, cascades what it related", arguments: BackendKind.allCases)
    func relatedInTheSameWrite(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open(schema: Self.schema)
        try await store.write { context in context = try DynamicRelationshipSyncTests.base() }
        try await store.write { context in
            try Tag(id: "red").delete(from: &context)
            try Drawer(id: "a").relate(.owns, Sheet(id: 1), in: &context)
            try Drawer(id: "b").relate(.free, Sheet(id: 2), in: &context)
            try Drawer(id: "a").delete(from: &context)
        }
        #expect(store.context.entity(Sheet.self, id: 1) == nil, "owned: erased with its owner")
        #expect(store.context.related(Sheet(id: 2).reference, .free) == [Drawer(id: "b").reference])
        try await store.close()
        let reopened = try await harness.open(schema: Self.schema)
        #expect(reopened.context.entity(Sheet.self, id: 1) == nil)
        #expect(reopened.context.related(Drawer(id: "b").reference, .free) == [Sheet(id: 2).reference])
        try reopened.context.checkInvariants()
        try await reopened.close()
    }

    @Test("SQLite and the in-memory backend say whether any dynamic relationship is stored", arguments: BackendKind.allCases)
    func holdsDynamicLinks(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let backend = try harness.backend()
        let store = try await Store(backend: backend, schema: Self.schema)
        try await store.write { context in context = try DynamicRelationshipSyncTests.base() }
        #expect(try backend.read { try $0.holdsDynamicLinks() } == false)
        try await store.write { try Drawer(id: "a").relate(.owns, Sheet(id: 1), in: &$0) }
        #expect(try backend.read { try $0.holdsDynamicLinks() } == true)
        try await store.write { Drawer(id: "a").unrelate(.owns, Sheet(id: 1), in: &$0) }
        #expect(try backend.read { try $0.holdsDynamicLinks() } == false)
        try await store.close()
    }
}
