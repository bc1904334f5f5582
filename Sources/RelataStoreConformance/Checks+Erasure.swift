import Foundation
import Relata

extension StoreConformance {
    static let erasureChecks: [Check] = [
        Check(name: "A cascade erases the dependents and unlinks both sides, in storage too") { storage in
            let store = try await open(storage)
            try await store.write { try saveTeam(&$0) }
            try await store.write { context in
                try Team(id: "s", members: .ids(["m1"]), projects: .ids(["x"])).save(to: &context)
                try Team.delete(id: "t", from: &context)
            }
            let reopened = try await reopen(store, storage, "after the cascade")
            let context = reopened.context
            try expect(context.count(of: Post.self) == 0, "the team's posts are erased with it")
            try expect(context.ids(of: "m1", \Member.$teams) == ["s"], "members lose the erased team")
            try expect(context.sources(linkingTo: "m1", through: \Post.$author).isEmpty, "no backlink to an erased post")
            try expect(context.entity(Project.self, id: "x") != nil, "a project another team co-owns survives")
        },
        Check(name: "A co-owned entity is erased with its last owner only") { storage in
            let store = try await open(storage)
            try await store.write { context in
                try Team(id: "a", projects: .relation([Project(id: "x", title: "X")])).save(to: &context)
                try Team(id: "b", projects: .ids(["x"])).save(to: &context)
            }
            try await store.write { context in try Team.delete(id: "a", from: &context) }
            var reopened = try await reopen(store, storage, "after the first owner")
            try expect(reopened.context.entity(Project.self, id: "x") != nil, "x survives while b owns it")
            try await reopened.write { context in try Team.delete(id: "b", from: &context) }
            reopened = try await reopen(reopened, storage, "after the last owner")
            try expect(reopened.context.entity(Project.self, id: "x") == nil, "x is erased with its last owner")
        },
        Check(name: "A .deny relation refuses the erasure, atomically") { storage in
            let store = try await open(storage)
            try await store.write { context in
                try saveTeam(&context)
                try Team(id: "t", bills: .relation([Bill(id: "b")])).save(to: &context)
            }
            let before = Snapshot.text(store.context)
            do {
                try await store.write { context in try Team.delete(id: "t", from: &context) }
                throw ConformanceFailure(description: "a team with a bill was erased")
            } catch let error as RelataError {
                try expect(error.code == .deleteDenied, "deleteDenied, not \(error.code)")
            }
            try expect(Snapshot.text(store.context) == before, "the refused erasure changed the state")
            try await reopen(store, storage, "after the refused erasure")
        },
    ]
}
