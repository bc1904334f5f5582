import Relata
import Testing

@Suite("Delete rules: ownership (.cascadeOrphans) and .deny")
struct OwnershipDeleteRuleTests {
    static func nodes(_ context: Context) -> Set<String> { Set(context.ids(of: Node.self)) }
    static func tombstones(_ context: Context) -> Set<String> { Set(context.ids(of: Tombstone.self)) }

    @Test("A co-owned entity survives its first owner and goes with its last")
    func coOwner() throws {
        var context = Context()
        try Node(id: "A", children: .relation([Node(id: "B")])).save(to: &context)
        try Node(id: "C", children: .ids(["B"])).save(to: &context)
        try Node.delete(id: "A", from: &context)
        #expect(Self.nodes(context) == ["B", "C"])
        try Node.delete(id: "C", from: &context)
        #expect(Self.nodes(context).isEmpty)
        #expect(Self.tombstones(context) == ["A", "B", "C"], "every erased entity got didDelete")
        try context.checkInvariants()
    }

    @Test("Owners of another type (through a mutual relation) count too")
    func ownersThroughMutualRelation() throws {
        var context = Context()
        try Project(id: "p1", nodes: .relation([Node2(id: "n")])).save(to: &context)
        try Project(id: "p2", nodes: .ids(["n"])).save(to: &context)
        try Project.delete(id: "p1", from: &context)
        #expect(context.entity(Node2.self, id: "n") != nil)
        #expect(context.ids(of: "n", \Node2.$projects) == ["p2"])
        try Project.delete(id: "p2", from: &context)
        #expect(context.entity(Node2.self, id: "n") == nil)
    }

    @Test("Chains cascade; diamonds erase shared entities once, with the last owner")
    func chainsAndDiamonds() throws {
        var context = Context()
        // A owns B and C; B and C both own D; D owns E.
        try Node(id: "A", children: .relation([Node(id: "B"), Node(id: "C")])).save(to: &context)
        try Node(id: "B", children: .relation([Node(id: "D", children: .relation([Node(id: "E")]))])).save(to: &context)
        try Node(id: "C", children: .ids(["D"])).save(to: &context)
        try Node(id: "X", children: .ids(["E"])).save(to: &context)   // E has a second owner
        try Node.delete(id: "A", from: &context)
        #expect(Self.nodes(context) == ["E", "X"])
        #expect(Self.tombstones(context) == ["A", "B", "C", "D"])
        try context.checkInvariants()
    }

    @Test("Cycles of ownership terminate")
    func cycles() throws {
        var context = Context()
        try Node(id: "A", children: .relation([Node(id: "B", children: .ids(["C"])), Node(id: "C", children: .ids(["A"]))]))
            .save(to: &context)
        try Node.delete(id: "A", from: &context)
        #expect(Self.nodes(context).isEmpty)
        #expect(Self.tombstones(context) == ["A", "B", "C"])
    }

    @Test("Erasing an owned entity leaves its owners alive")
    func ownedEntity() throws {
        var context = Context()
        try Node(id: "A", children: .relation([Node(id: "B")])).save(to: &context)
        try Node.delete(id: "B", from: &context)
        #expect(Self.nodes(context) == ["A"])
        #expect(context.ids(of: "A", \Node.$children).isEmpty)
    }

    @Test(".deny refuses to erase an entity that still links through it, naming the links; nothing changes")
    func deny() throws {
        var context = Context()
        try Account(id: "acc", invoices: .relation([Invoice(id: "i1"), Invoice(id: "i2")])).save(to: &context)
        let before = context
        let error = #expect(throws: RelataError.self) { try Account.delete(id: "acc", from: &context) }
        #expect(error?.code == .deleteDenied)
        #expect(error?.entityType == "Account" && error?.id == "acc" && error?.relation == "invoices")
        #expect(error?.message.contains("i1") == true && error?.message.contains("i2") == true)
        #expect(context.entity(Account.self, id: "acc") != nil)
        #expect(context.ids(of: "acc", \Account.$invoices) == before.ids(of: "acc", \Account.$invoices))
        try Account(id: "acc", invoices: .ids([])).save(to: &context)
        try Account.delete(id: "acc", from: &context)
        #expect(context.entity(Account.self, id: "acc") == nil)
    }

    @Test(".deny reached through a cascade refuses the whole erasure: the context is exactly as before")
    func denyThroughCascade() throws {
        var context = Context()
        try Customer(
            id: "cu",
            accounts: .relation([Account(id: "empty"), Account(id: "busy", invoices: .relation([Invoice(id: "i")]))])
        ).save(to: &context)
        let error = #expect(throws: RelataError.self) { try Customer.delete(id: "cu", from: &context) }
        #expect(error?.code == .deleteDenied && error?.id == "busy")
        #expect(context.entity(Customer.self, id: "cu") != nil)
        #expect(context.entity(Account.self, id: "empty") != nil, "no part of the cascade happened")
        #expect(context.ids(of: "cu", \Customer.$accounts) == ["empty", "busy"])
        try context.checkInvariants()
    }
}
