import Relata
import Testing

/// An entity that conforms to `EntityModelProtocol` by hand, without `@EntityModel`: the macro is
/// sugar, and this is everything it writes.
struct Label: EntityModelProtocol, Equatable {
    let id: String
    var title: String?

    @Relationship var owner: User? = nil

    init(id: String, title: String? = nil, owner: Relation<User, Relations.OneWay, Relations.ToOne, Relations.Optional> = .none) {
        self.id = id
        self.title = title
        self._owner = Relationship(relation: owner)
    }

    static var ownerKey: _AnyRelationKey { _AnyRelationKey(ordinal: 0, name: "owner", toMany: false) }

    static var ownerRelation: RelationDescriptor<Label, User> {
        RelationDescriptor(key: ownerKey, inverse: nil, deleteRule: .nullify, isRequired: false)
    }

    func save(to context: inout Context, options: MergeStrategy<Label>) throws {
        try willSave(to: &context)
        context._upsert(self, options: options)
        try context._saveRelation($owner, of: id, Self.ownerRelation)
        try didSave(to: &context)
    }

    func delete(from context: inout Context) throws {
        try context._delete(self)
    }

    mutating func normalize() {
        $owner = .none
    }

    static var patch: MergeStrategy<Label> { MergeStrategy(.patch(\.title)) }

    static func _relataVisitRelations<V: _RelationVisitor>(_ visitor: inout V) throws {
        try visitor.visit(ownerRelation, \Label.$owner)
    }

    static func _relataRelationKey(_ keyPath: AnyKeyPath) -> _AnyRelationKey? {
        keyPath == \Label.$owner ? ownerKey : nil
    }
}

@Suite("Hand-written conformance")
struct HandWrittenConformanceTests {
    @Test("Save, patch, query and delete work without the macro")
    func withoutMacro() throws {
        var context = Context()
        try Label(id: "l", title: "Urgent", owner: .relation(.bob)).save(to: &context)
        try Label(id: "l").save(to: &context, options: .fragment)
        #expect(context.entity(Label.self, id: "l")?.title == "Urgent")
        #expect(Label.query("l", in: context).with(\.$owner).resolve()?.owner?.name == "Bob")
        try User.delete(id: "1", from: &context)
        #expect(context.ids(of: "l", \Label.$owner) == [])
        try context.checkInvariants()
    }
}

@Suite("Hand-written conformance in a Store")
struct HandWrittenConformanceStoreTests {
    /// Without `@EntityModel` there is no specialized store support: the protocol's default
    /// (the same code, unspecialized) collects the rows, catches up the spare copy and loads.
    @Test("Writes persist and reopen through the default store descriptor", arguments: BackendKind.allCases)
    func throughStore(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let schema = EntitySchema(User.self, Label.self)
        let store = try await harness.open(schema: schema)
        try await store.write { context in
            try Label(id: "l", title: "Urgent", owner: .relation(.bob)).save(to: &context)
            try Label(id: "m", owner: .relation(.alice)).save(to: &context)
        }
        try await store.write { context in
            try Label(id: "m", owner: .id("1")).save(to: &context, options: .fragment)
        }
        try await store.write { context in
            try Label.delete(id: "l", from: &context)
        }
        let expected = store.context
        #expect(expected.ids(of: Label.self) == ["m"])
        #expect(expected.sources(linkingTo: "1", through: \Label.$owner) == ["m"])
        try await store.close()

        let reopened = try await harness.open(schema: schema)
        #expect(reopened.context.ids(of: Label.self) == ["m"])
        #expect(try await reopened.read { Label.query("m", in: $0).with(\.$owner).resolve()?.owner?.name } == "Bob")
        #expect(reopened.context.sources(linkingTo: "1", through: \Label.$owner) == ["m"])
        #expect(reopened.context.sources(linkingTo: "2", through: \Label.$owner).isEmpty)
        try reopened.context.checkInvariants()
        try await reopened.close()
    }
}

/// A hand-written conformance with a bug: it hands over another type's relation (`Label.owner`)
/// as its own, and its ids (`Int`) are not that type's (`String`).
struct Badge: EntityModelProtocol, Equatable {
    let id: Int

    func save(to context: inout Context, options: MergeStrategy<Badge>) throws {
        context._upsert(self, options: options)
    }

    func delete(from context: inout Context) throws {
        try context._delete(self)
    }

    mutating func normalize() {}

    static func _relataVisitRelations<V: _RelationVisitor>(_ visitor: inout V) throws {
        try visitor.visit(Label.ownerRelation, \Label.$owner)
    }

    static var patch: MergeStrategy<Badge> { .replace }

    static func _relataRelationKey(_ keyPath: AnyKeyPath) -> _AnyRelationKey? { nil }
}

@Suite("Hand-written conformance: misuse")
struct HandWrittenConformanceMisuseTests {
    @Test("Visiting another type's relation stops the program with a message; memory is never reinterpreted")
    func foreignRelation() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var context = Context()
            try Badge(id: 7).save(to: &context)
            try Badge.delete(id: 7, from: &context)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Int is not String in relation owner"), "\(message)")
    }
}
