import Foundation
import Relata

extension StoreConformance {
    static let linkChecks: [Check] = [
        Check(name: "Entities and both sides of every link are read back after reopening") { storage in
            let store = try await open(storage)
            try await store.write { try saveTeam(&$0) }
            let reopened = try await reopen(store, storage, "after the first write")
            let context = reopened.context
            try expect(context.entity(Member.self, id: "m2")?.name == "Bo", "member m2")
            try expect(context.ids(of: "m1", \Member.$teams) == ["t"], "the inverse side of Team.members")
            try expect(context.ids(of: "p2", \Post.$team) == ["t"], "the to-one side of Team.posts")
            try expect(context.sources(linkingTo: "m1", through: \Post.$author) == ["p1"], "the backlinks of a one-way to-one")
            try expect(Set(context.sources(linkingTo: "m1", through: \Post.$readers)) == ["p2"], "the backlinks of a one-way to-many")
        },
        Check(name: "Ordered to-many positions are read back in order, after inserts and moves") { storage in
            let store = try await open(storage)
            try await store.write { try saveTeam(&$0) }
            try await store.write { context in
                try Team(id: "t").move("p3", in: \.$posts, to: 0, in: &context)
                try Member(id: "m4", name: "Di").save(to: &context)
                try Team(id: "t").insert("m4", into: \.$members, at: 1, in: &context)
            }
            let reopened = try await reopen(store, storage, "after moves")
            try expect(reopened.context.ids(of: "t", \Team.$posts) == ["p3", "p1", "p2"], "posts in order")
            try expect(reopened.context.ids(of: "t", \Team.$members) == ["m3", "m4", "m1", "m2"], "members in order")
        },
        Check(name: "Counts come from the links, after reopening") { storage in
            let store = try await open(storage)
            try await store.write { try saveTeam(&$0) }
            try await store.set(\Team.$members, of: "t", to: .appending(ids: ["m9"]))
            let reopened = try await reopen(store, storage, "after an append")
            try expect(reopened.context.count(of: "t", \Team.$members) == 4, "four members")
            try expect(reopened.context.count(of: Post.self) == 3, "three posts")
            try expect(reopened.context.count(of: "p1", \Post.$readers) == 0, "no readers")
        },
        Check(name: "Dynamic relationships are read back, and an owner's erasure erases what it alone owns") { storage in
            let store = try await open(storage)
            try await store.write { try saveTeamWithDynamicLinks(&$0) }
            var reopened = try await reopen(store, storage, "after relating")
            try expect(Bill(id: "b").related(.ownedBy, Member.self, in: reopened.context).map(\.id) == ["m1"], "b owned by m1")
            try await reopened.write { context in try Member.delete(id: "m1", from: &context) }
            reopened = try await reopen(reopened, storage, "after erasing the owner")
            try expect(reopened.context.entity(Bill.self, id: "b") == nil, "the owned bill is erased with its owner")
            try expect(reopened.context.dynamicRelations(of: EntityReference(Member.self, id: "m2")).count == 1, "m2's free link stays")
        },
        Check(name: "A unique relation refuses a second source and changes nothing") { storage in
            let store = try await open(storage)
            try await store.write { try saveTeam(&$0) }
            let before = Snapshot.text(store.context)
            do {
                try await store.write { context in try Team(id: "u", lead: .id("m1")).save(to: &context) }
                throw ConformanceFailure(description: "a second team led by m1 was accepted")
            } catch let error as RelataError {
                try expect(error.code == .uniqueViolation, "uniqueViolation, not \(error.code)")
            }
            try expect(Snapshot.text(store.context) == before, "the refused write changed the state")
            try await reopen(store, storage, "after the refused write")
        },
    ]
}
