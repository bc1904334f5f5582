import Foundation
import Relata
@testable import RelataCore
import Testing

/// Dynamic relationships (BartlebysCore's): `owns`, `ownedBy` and `free` between any two entities, at run time.
@Suite("Dynamic relationships")
struct DynamicRelationshipTests {
    static func stored() throws -> Context {
        var context = Context()
        for folder in ["a", "b", "c"] { try Drawer(id: folder, name: folder.uppercased()).save(to: &context) }
        for file in 1...4 { try Sheet(id: file, path: "/f\(file)").save(to: &context) }
        try Tag(id: "red").save(to: &context)
        return context
    }

    @Test("Relationships are queried from both ends, with their kind seen from each end")
    func bothEnds() throws {
        var context = try Self.stored()
        let a = Drawer(id: "a"), red = Tag(id: "red")
        try a.relate(.owns, Sheet(id: 2), in: &context)
        try a.relate(.owns, Sheet(id: 1), in: &context)
        try Sheet(id: 1).relate(.free, red, in: &context)

        #expect(a.related(.owns, Sheet.self, in: context).map(\.id) == [1, 2])
        #expect(a.related(.owns, Sheet.self, in: context).first?.path == "/f1")
        #expect(Sheet(id: 2).related(.ownedBy, Drawer.self, in: context).map(\.id) == ["a"])
        #expect(red.related(.free, Sheet.self, in: context).map(\.id) == [1])
        #expect(Sheet(id: 1).related(.free, Tag.self, in: context).map(\.id) == ["red"])
        #expect(a.related(.owns, Tag.self, in: context).isEmpty, "filtered by type")
        #expect(context.countRelated(a.reference, .owns) == 2)
        #expect(context.countRelated(Sheet(id: 1).reference, .ownedBy) == 1)
        #expect(context.isRelated(red.reference, .free, Sheet(id: 1).reference))
        #expect(context.dynamicRelations(of: Sheet(id: 1).reference) == [
            DynamicRelation(.ownedBy, a.reference), DynamicRelation(.free, red.reference),
        ])
        let files = Drawer.query("a", in: context).related(.owns, Sheet.self).resolve()
        #expect(files.map(\.id) == [1, 2])
        try context.checkInvariants()
    }

    @Test("`ownedBy` is the inverse of `owns`: one relationship, stored once, removable from either end")
    func ownedByIsTheInverse() throws {
        var context = try Self.stored()
        try Sheet(id: 1).relate(.ownedBy, Drawer(id: "a"), in: &context)
        context.beginRecordingChanges(replica: "r")
        try Drawer(id: "a").relate(.owns, Sheet(id: 1), in: &context)
        #expect(context.changes.isEmpty, "relating again is a no-op")
        #expect(Drawer(id: "a").related(.owns, Sheet.self, in: context).map(\.id) == [1])
        #expect(Drawer(id: "a").unrelate(.owns, Sheet(id: 1), in: &context))
        #expect(Sheet(id: 1).related(.ownedBy, Drawer.self, in: context).isEmpty)
        #expect(!Sheet(id: 1).unrelate(.ownedBy, Drawer(id: "a"), in: &context), "already removed")
        #expect(context.entity(Sheet.self, id: 1) != nil, "unrelating erases nothing")
        try context.checkInvariants()
    }

    @Test("Relating an entity that is not stored, or an entity to itself, throws and changes nothing")
    func errors() throws {
        var context = try Self.stored()
        let before = context
        let error = try #require(throws: RelataError.self) {
            try Drawer(id: "a").relate(.owns, Sheet(id: 99), in: &context)
        }
        #expect(error.code == .entityNotFound && error.entityType == "Sheet" && error.id == "99" && error.relation == "owns")
        #expect("\(error)".contains("Drawer \"a\""))
        let itself = try #require(throws: RelataError.self) {
            try Drawer(id: "a").relate(.free, Drawer(id: "a"), in: &context)
        }
        #expect(itself.code == .invalidRelation && itself.entityType == "Drawer" && itself.id == "a")
        #expect(context.dynamicRelations(of: Drawer(id: "a").reference).isEmpty)
        #expect(context.count(of: Drawer.self) == before.count(of: Drawer.self))
    }

    @Test("An owned entity survives while a co-owner is alive, and goes with the last one")
    func coOwnerSurvives() throws {
        var context = try Self.stored()
        try Drawer(id: "a").relate(.owns, Sheet(id: 1), in: &context)
        try Drawer(id: "c").relate(.owns, Sheet(id: 1), in: &context)
        try Drawer(id: "a").delete(from: &context)
        #expect(context.entity(Sheet.self, id: 1) != nil)
        #expect(Sheet(id: 1).related(.ownedBy, Drawer.self, in: context).map(\.id) == ["c"])
        try Drawer(id: "c").delete(from: &context)
        #expect(context.entity(Sheet.self, id: 1) == nil)
        #expect(context.entity(Tombstone.self, id: "sheet 1") != nil, "willDelete ran for the cascaded entity")
        try context.checkInvariants()
    }

    @Test("Erasing an owned or freely related entity leaves the other end alive")
    func ownedAndFreeErasure() throws {
        var context = try Self.stored()
        try Drawer(id: "a").relate(.owns, Sheet(id: 1), in: &context)
        try Sheet(id: 2).relate(.free, Drawer(id: "b"), in: &context)
        try Sheet.delete(id: 1, from: &context)
        try Drawer(id: "b").delete(from: &context)
        #expect(context.entity(Drawer.self, id: "a") != nil)
        #expect(context.entity(Sheet.self, id: 2) != nil)
        #expect(Drawer(id: "a").related(.owns, Sheet.self, in: context).isEmpty)
        #expect(context.dynamicRelations(of: Sheet(id: 2).reference).isEmpty)
        try context.checkInvariants()
    }

    @Test("Ownership chains cascade and cycles terminate")
    func chainsAndCycles() throws {
        var context = try Self.stored()
        // a owns 1, 1 owns b, b owns 2, 2 owns a (a cycle); c owns 3 (untouched).
        try Drawer(id: "a").relate(.owns, Sheet(id: 1), in: &context)
        try Sheet(id: 1).relate(.owns, Drawer(id: "b"), in: &context)
        try Drawer(id: "b").relate(.owns, Sheet(id: 2), in: &context)
        try Sheet(id: 2).relate(.owns, Drawer(id: "a"), in: &context)
        try Drawer(id: "c").relate(.owns, Sheet(id: 3), in: &context)
        try Drawer(id: "a").delete(from: &context)
        #expect(context.ids(of: Drawer.self).sorted() == ["c"])
        #expect(context.ids(of: Sheet.self).sorted() == [3, 4])
        try context.checkInvariants()
    }

    @Test("Dynamic and declared (`.cascadeOrphans`) owners count alike")
    func mixedOwners() throws {
        var context = Context()
        try Node(id: "root", children: .relation([Node(id: "leaf")])).save(to: &context)
        try Drawer(id: "f").save(to: &context)
        try Drawer(id: "f").relate(.owns, Node(id: "leaf"), in: &context)
        try Node(id: "root").delete(from: &context)
        #expect(context.entity(Node.self, id: "leaf") != nil, "the folder still owns it")
        try Drawer(id: "f").delete(from: &context)
        #expect(context.entity(Node.self, id: "leaf") == nil)
        #expect(context.entity(Tombstone.self, id: "leaf") != nil)

        // And the other way round: a declared owner keeps a dynamically owned entity alive.
        try Node(id: "root2", children: .relation([Node(id: "leaf2")])).save(to: &context)
        try Drawer(id: "g").save(to: &context)
        try Drawer(id: "g").relate(.owns, Node(id: "leaf2"), in: &context)
        try Drawer(id: "g").delete(from: &context)
        #expect(context.entity(Node.self, id: "leaf2") != nil, "root2 still owns it")
        try context.checkInvariants()
    }

    @Test("A `.deny` relation reached through dynamic ownership refuses the erasure, atomically")
    func denyThroughOwnership() throws {
        var context = Context()
        try Account(id: "acc", invoices: .relation([Invoice(id: "inv")])).save(to: &context)
        try Drawer(id: "f").save(to: &context)
        try Drawer(id: "f").relate(.owns, Account(id: "acc"), in: &context)
        let before = context
        let error = try #require(throws: RelataError.self) { try Drawer(id: "f").delete(from: &context) }
        #expect(error.code == .deleteDenied && error.entityType == "Account" && error.id == "acc")
        #expect(context.entity(Drawer.self, id: "f") != nil && context.entity(Account.self, id: "acc") != nil)
        #expect(context.related(Drawer(id: "f").reference, .owns) == before.related(Drawer(id: "f").reference, .owns))
        // Once the account has another owner, the folder can go.
        try Drawer(id: "g").save(to: &context)
        try Drawer(id: "g").relate(.owns, Account(id: "acc"), in: &context)
        try Drawer(id: "f").delete(from: &context)
        #expect(context.entity(Account.self, id: "acc") != nil)
        try context.checkInvariants()
    }

    @Test("References resolve typed, and name the entity")
    func references() throws {
        let context = try Self.stored()
        let ref = EntityReference(Sheet.self, id: 3)
        #expect(ref.resolve(as: Sheet.self, in: context)?.path == "/f3")
        #expect(ref.resolve(as: Drawer.self, in: context) == nil)
        #expect(ref.id(as: Sheet.self) == 3)
        #expect(ref.description == "Sheet \"3\"" && ref.typeName == "Sheet")
        #expect(ref == Sheet(id: 3).reference && ref != EntityReference(Sheet.self, id: 4))
    }
}
