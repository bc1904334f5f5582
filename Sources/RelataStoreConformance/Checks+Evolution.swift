import Foundation
import Relata

extension StoreConformance {
    static let evolutionChecks: [Check] = [
        Check(name: "An added property with a default reads its default from rows stored before it") { storage in
            let store = try await open(storage)
            try await store.save(Project(id: "x", title: "X"))
            try await store.close()
            let evolved = try await Store(backend: try storage(), schema: EntitySchema(ProjectV4.self))
            let read = try await evolved.read { $0.entity(ProjectV4.self, id: "x") }
            try expect(read?.title == "X" && read?.priority == 3 && read?.tags == ["new"], "the defaults: \(String(describing: read))")
            var stored = ProjectV4(id: "y", title: "Y", priority: 7)
            stored.tags = []
            try await evolved.write { [stored] in try stored.save(to: &$0) }
            try expect(try await evolved.read { $0.entity(ProjectV4.self, id: "y") } == stored, "stored values win over the defaults")
            try await evolved.close()
        },
        Check(name: "An added optional property and relation need no migration; a type dropped from the schema is kept") { storage in
            let store = try await open(storage)
            try await store.write { try saveTeam(&$0) }
            try await store.close()
            let evolved = try await Store(backend: try storage(), schema: EntitySchema(ProjectV2.self, Member.self))
            try expect(evolved.context.entity(ProjectV2.self, id: "x")?.title == "X", "the project reads in its new form")
            try expect(evolved.ignoredRecords.keys.contains("RelataConformance.Team"), "teams are counted as ignored")
            try await evolved.write { context in
                try ProjectV2(id: "x", title: "X", budget: 3, owners: .ids(["m1"])).save(to: &context)
            }
            try await evolved.close()
            let back = try await open(storage)
            try expect(back.context.entity(Project.self, id: "x")?.title == "X", "the old form reads the project")
            try expect(back.context.count(of: "t", \Team.$posts) == 3, "the dropped type's rows were kept")
            try await back.close()
        },
        Check(name: "A stored entity that no longer decodes is undecodableRecord naming its type and id") { storage in
            let store = try await open(storage)
            try await store.save(Project(id: "x", title: "X"))
            try await store.close()
            // A store opens without reading rows: the read of the row fails, typed.
            let evolved = try await Store(backend: try storage(), schema: EntitySchema(ProjectV3.self))
            do {
                _ = try await evolved.read { $0.entity(ProjectV3.self, id: "x") }
                throw ConformanceFailure(description: "a project with no deadline decoded")
            } catch let error as RelataError {
                try expect(error.code == .undecodableRecord, "undecodableRecord, not \(error.code)")
                try expect(error.entityType == "RelataConformance.Project" && error.id == "x", "type and id named: \(error)")
                try expect(error.message.contains("deadline"), "the property named: \(error)")
            }
            try await evolved.close()
            let again = try await open(storage)
            try expect(again.context.entity(Project.self, id: "x") != nil, "the failed read changed nothing")
            try await again.close()
        },
        Check(name: "Rows of unknown relations or damaged rows are errors or ignored, never a crash") { storage in
            let backend = try storage()
            var rows = StoreChanges()
            rows.upsertedEntities = [
                EntityRecord(type: "RelataConformance.Bill", id: "b", payload: Data(#"{"id":"b"}"#.utf8)),
                EntityRecord(type: "Somebody.Else", id: "z", payload: Data([0xFF])),
            ]
            rows.upsertedLinks = [
                LinkRecord(type: "RelataConformance.Team", relation: "gone", source: "t", target: "b", position: "a0")
            ]
            try backend.persist(rows)
            try backend.close()
            let store = try await open(storage)
            try expect(store.context.entity(Bill.self, id: "b") != nil, "the known row loads")
            try expect(store.ignoredRecords == ["Somebody.Else": 1, "RelataConformance.Team.gone": 1], "ignored: \(store.ignoredRecords)")
            try await store.close()
            let damaged = try storage()
            var bad = StoreChanges()
            bad.upsertedEntities = [EntityRecord(type: "RelataConformance.Bill", id: "c", payload: Data([0x00, 0x01, 0xFF]))]
            try damaged.persist(bad)
            try damaged.close()
            let reopened = try await open(storage)
            defer { Task { try await reopened.close() } }
            do {
                _ = try await reopened.read { $0.entity(Bill.self, id: "c") }
                throw ConformanceFailure(description: "a damaged row loaded")
            } catch let error as RelataError {
                try expect(error.code == .undecodableRecord && error.id == "c", "undecodableRecord naming c: \(error)")
            }
            try expect(reopened.context.entity(Bill.self, id: "b") != nil, "the other rows still read")
        },
        Check(name: "Rows an older version wrote (names without module, one link row per side) are rewritten once") { storage in
            let backend = try storage()
            var rows = StoreChanges()
            rows.upsertedEntities = [
                EntityRecord(type: "Member", id: "m1", payload: Data(#"{"id":"m1","name":"Ann"}"#.utf8)),
                EntityRecord(type: "Team", id: "t", payload: Data(#"{"id":"t"}"#.utf8)),
            ]
            rows.upsertedLinks = [
                LinkRecord(type: "Team", relation: "members", source: "t", target: "m1", position: "a0"),
                LinkRecord(type: "Member", relation: "teams", source: "m1", target: "t", position: "a0"),
            ]
            try backend.persist(rows)
            try backend.close()
            let counting = FailingOnce(try storage())
            let store = try await Store(backend: counting, schema: ConformanceModels.schema)
            try expect(store.context.ids(of: "t", \Team.$members) == ["m1"], "the old rows load")
            try expect(counting.persisted.withLock { $0.count } == 1, "the rows are rewritten, once")
            let reopened = try await reopen(store, storage, "after the upgrade")
            try await reopened.close()
            let again = FailingOnce(try storage())
            let third = try await Store(backend: again, schema: ConformanceModels.schema)
            try expect(again.persisted.withLock { $0.isEmpty }, "an upgraded store is not rewritten again")
            try expect(third.ignoredRecords.isEmpty, "no old row is left: \(third.ignoredRecords)")
            try await third.close()
        },
    ]
}
