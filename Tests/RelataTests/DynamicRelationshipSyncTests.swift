import Foundation
import Relata
@testable import RelataCore
import Testing

/// Dynamic relationships across replicas (ChangeSets) and stores: each relationship is its own
/// record, so concurrent writers never overwrite each other's.
@Suite("Dynamic relationships: replicas and stores")
struct DynamicRelationshipSyncTests {
    static let schema = EntitySchema(Drawer.self, Sheet.self, Tag.self, Tombstone.self)

    static func base() throws -> Context {
        var context = Context()
        for drawer in ["a", "b", "c"] { try Drawer(id: drawer).save(to: &context) }
        for sheet in 1...4 { try Sheet(id: sheet).save(to: &context) }
        try Tag(id: "red").save(to: &context)
        return context
    }

    /// Every entity of the test models with its dynamic relationships, one line each.
    static func dumped(_ context: Context) -> String {
        var refs = context.ids(of: Drawer.self).map { EntityReference(Drawer.self, id: $0) }
        refs += context.ids(of: Sheet.self).map { EntityReference(Sheet.self, id: $0) }
        refs += context.ids(of: Tag.self).map { EntityReference(Tag.self, id: $0) }
        return refs.sorted { $0.description < $1.description }
            .map { "\($0): \(context.dynamicRelations(of: $0).map(\.description).joined(separator: ", "))" }
            .joined(separator: "\n")
    }

    @Test("Replicas that relate and unrelate concurrently keep every relationship, and converge")
    func replicasConverge() throws {
        let base = try Self.base()
        var a = base, b = base
        a.beginRecordingChanges(replica: "A")
        b.beginRecordingChanges(replica: "B")
        let drawer = Drawer(id: "a")
        try drawer.relate(.owns, Sheet(id: 1), in: &a)
        try drawer.relate(.owns, Sheet(id: 2), in: &a)
        try drawer.relate(.owns, Sheet(id: 3), in: &b)
        try Sheet(id: 1).relate(.free, Tag(id: "red"), in: &b)
        try Sheet(id: 2).delete(from: &b)
        try drawer.relate(.owns, Sheet(id: 4), in: &b)
        drawer.unrelate(.owns, Sheet(id: 4), in: &b)

        let fromA = a.changes, fromB = b.changes
        a.merge(fromB)
        b.merge(fromA)
        #expect(Self.dumped(a) == Self.dumped(b))
        #expect(drawer.related(.owns, Sheet.self, in: a).map(\.id) == [1, 3], "2 was erased on B, 4 unrelated")
        #expect(Tag(id: "red").related(.free, Sheet.self, in: a).map(\.id) == [1])
        try a.checkInvariants()
        try b.checkInvariants()
        // Merging again changes nothing.
        let once = Self.dumped(a)
        a.merge(fromB)
        #expect(Self.dumped(a) == once)
    }

    @Test("A change set with dynamic relationships survives JSON, and names unknown types")
    func coding() throws {
        let base = try Self.base()
        var a = base, b = base, c = base
        a.beginRecordingChanges(replica: "A")
        b.beginRecordingChanges(replica: "B")
        c.beginRecordingChanges(replica: "B")
        try Drawer(id: "a").relate(.owns, Sheet(id: 1), in: &a)
        try Tag(id: "red").relate(.free, Drawer(id: "b"), in: &a)
        try Drawer(id: "a").delete(from: &a)
        let data = try JSONEncoder().encode(a.changes)
        let decoder = JSONDecoder()
        decoder.userInfo[.relataSchema] = Self.schema
        b.merge(try decoder.decode(ChangeSet.self, from: data))
        c.merge(a.changes)
        #expect(Self.dumped(b) == Self.dumped(c))
        #expect(Self.dumped(b) == Self.dumped(a))
        #expect(b.entity(Sheet.self, id: 1) == nil, "the recorded cascade")

        decoder.userInfo[.relataSchema] = EntitySchema(Drawer.self, Sheet.self, Tombstone.self)
        let error = try #require(throws: RelataError.self) { try decoder.decode(ChangeSet.self, from: data) }
        #expect(error.code == .unknownEntityType && error.entityType == "Tag")
    }

    @Test("A store persists dynamic relationships, one row each, and reopens them", arguments: BackendKind.allCases)
    func storePersists(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let backend = RecordingBackend(try harness.backend())
        let store = try await Store(backend: backend, schema: Self.schema)
        try await store.write { context in context = try Self.base() }
        try await store.write { context in
            try Drawer(id: "a").relate(.owns, Sheet(id: 1), in: &context)
            try Drawer(id: "b").relate(.owns, Sheet(id: 1), in: &context)
            try Drawer(id: "b").relate(.owns, Sheet(id: 2), in: &context)
            try Sheet(id: 3).relate(.ownedBy, Drawer(id: "c"), in: &context)
            try Tag(id: "red").relate(.free, Sheet(id: 4), in: &context)
        }
        #expect(backend.writes.last?.insertedDynamicLinks.count == 5)
        #expect(backend.writes.last?.count == 5, "no entity or link row")
        try await store.write { context in try Drawer(id: "b").delete(from: &context) }
        let erasure = try #require(backend.writes.last)
        #expect(erasure.deletedDynamicLinks.count == 2, "b owns 1 and 2; 2 erased with no other owner")
        #expect(Set(erasure.deletedEntities.map(\.id)) == ["b", "2"])
        let written = Self.dumped(store.context)
        try await store.close()

        let reopened = try await Store(backend: try harness.backend(), schema: Self.schema)
        #expect(Self.dumped(reopened.context) == written)
        #expect(reopened.context.related(Sheet(id: 1).reference, .ownedBy) == [Drawer(id: "a").reference])
        try reopened.context.checkInvariants()
        // Ownership still cascades after reopening.
        try await reopened.write { context in try Drawer(id: "a").delete(from: &context) }
        #expect(reopened.context.entity(Sheet.self, id: 1) == nil)
        try await reopened.close()
    }

    @Test("Agents relating and unrelating concurrently through a store never overwrite each other", arguments: BackendKind.allCases)
    func concurrentAgents(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open(schema: Self.schema)
        let count = 200
        try await store.write { context in
            try Drawer(id: "a").save(to: &context)
            for i in 0..<count { try Sheet(id: i).save(to: &context) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<count {
                group.addTask {
                    try await store.write { try Drawer(id: "a").relate(.owns, Sheet(id: i), in: &$0) }
                    try await store.write { try Sheet(id: i).relate(.free, Drawer(id: "a"), in: &$0) }
                    if i % 2 == 0 {
                        try await store.write { Drawer(id: "a").unrelate(.owns, Sheet(id: i), in: &$0) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let odd = Set((0..<count).filter { $0 % 2 == 1 })
        #expect(Set(Drawer(id: "a").related(.owns, Sheet.self, in: store.context).map(\.id)) == odd)
        #expect(store.context.countRelated(Drawer(id: "a").reference, .free) == count)
        try await store.close()
        let reopened = try await harness.open(schema: Self.schema)
        #expect(Set(Drawer(id: "a").related(.owns, Sheet.self, in: reopened.context).map(\.id)) == odd)
        #expect(reopened.context.countRelated(Drawer(id: "a").reference, .free) == count)
        try reopened.context.checkInvariants()
        try await reopened.close()
    }

    @Test("Relationships to a type the schema no longer has are kept in storage but not loaded", arguments: BackendKind.allCases)
    func unknownTypesIgnored(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open(schema: Self.schema)
        try await store.write { context in
            context = try Self.base()
            try Tag(id: "red").relate(.free, Sheet(id: 1), in: &context)
            try Drawer(id: "a").relate(.owns, Sheet(id: 1), in: &context)
        }
        try await store.close()
        let withoutTags = try await harness.open(schema: EntitySchema(Drawer.self, Sheet.self))
        #expect(withoutTags.ignoredRecords["dynamic links"] == 1)
        #expect(withoutTags.context.related(Sheet(id: 1).reference, .ownedBy) == [Drawer(id: "a").reference])
        try await withoutTags.close()
        let again = try await harness.open(schema: Self.schema)
        #expect(again.context.related(Sheet(id: 1).reference, .free) == [Tag(id: "red").reference])
        try await again.close()
    }
}
