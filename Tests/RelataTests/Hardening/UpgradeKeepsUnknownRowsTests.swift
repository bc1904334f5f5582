import Foundation
import Relata
import Testing

/// Upgrading a store written before type names were module-qualified rewrites what the model
/// knows and never deletes what it does not: rows of removed relations, dynamic relationships of
/// unknown kinds or types stay, counted in `ignoredRecords`.
@Suite("Hardening: upgrades keep what they do not understand")
struct UpgradeKeepsUnknownRowsTests {
    @Test("An old-format store with a removed relation, an unknown dynamic kind and an unknown type: the rows are still there after the upgrade, and counted")
    func upgradeKeepsUnknownRows() async throws {
        let memory = InMemoryBackend()
        var legacy = StoreChanges()
        legacy.upsertedEntities = [
            EntityRecord(type: "User", id: "1", payload: Data(#"{"id":"1","name":"Bob"}"#.utf8)),
            EntityRecord(type: "Chat", id: "c", payload: Data(#"{"id":"c"}"#.utf8)),
        ]
        let removed = LinkRecord(type: "Chat", relation: "pinnedBy", source: "c", target: "1", position: "a0")
        legacy.upsertedLinks = [
            LinkRecord(type: "Chat", relation: "users", source: "c", target: "1", position: "a0", inversePosition: "a0"), removed,
        ]
        let unknownKind = DynamicLinkRecord(kind: "watches", sourceType: "User", source: "1", targetType: "Chat", target: "c")
        let unknownType = DynamicLinkRecord(kind: "free", sourceType: "User", source: "1", targetType: "Folder", target: "f")
        legacy.insertedDynamicLinks = [unknownKind, unknownType]
        try memory.persist(legacy)

        let store = try await Store(backend: memory, schema: EntitySchema(User.self, Chat.self))
        #expect(store.context.ids(of: "c", \Chat.$users) == ["1"], "what the model knows is loaded")
        #expect(store.ignoredRecords["Chat.pinnedBy"] == 1)
        #expect(store.ignoredRecords["dynamic links"] == 2)
        try await store.close()

        var links: [LinkRecord] = []
        var dynamic: [DynamicLinkRecord] = []
        try memory.load(entities: { _ in }, links: { links.append($0) }, dynamicLinks: { dynamic.append($0) })
        #expect(links.contains(removed), "the link of the removed relation is kept")
        #expect(Set(dynamic) == [unknownKind, unknownType], "the dynamic relationships it does not understand are kept")
        #expect(links.contains { $0.type.hasSuffix(".Chat") && $0.relation == "users" }, "the known link was rewritten under the qualified name")

        let reopened = try await Store(backend: memory, schema: EntitySchema(User.self, Chat.self))
        #expect(reopened.ignoredRecords["Chat.pinnedBy"] == 1, "still there, still counted")
        try await reopened.close()
    }
}
