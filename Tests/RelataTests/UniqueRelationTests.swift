import Relata
import Testing

/// SQLiteModel's example: a movie's prequel is unique — two movies cannot have the same prequel.
@EntityModel
struct Movie: Codable, Equatable {
    let id: String
    var title: String
    @Relationship(unique: true) var prequel: Movie? = nil
    @Relationship(unique: true) var remakes: [Movie]? = nil
}

@Suite("Unique relations")
struct UniqueRelationTests {
    static func movies() throws -> Context {
        var context = Context()
        try Movie(id: "iv", title: "A New Hope").save(to: &context)
        try Movie(id: "v", title: "The Empire Strikes Back", prequel: .id("iv")).save(to: &context)
        return context
    }

    @Test("Linking a taken target throws, naming both sources, and changes nothing")
    func takenTarget() throws {
        var context = try Self.movies()
        let error = #expect(throws: RelataError.self) {
            try Movie(id: "vi", title: "Return of the Jedi", prequel: .id("iv")).save(to: &context)
        }
        #expect(error?.code == .uniqueViolation)
        #expect(error?.entityType == "Movie" && error?.id == "vi" && error?.relation == "prequel")
        #expect(error?.message.contains("\"v\"") == true && error?.message.contains("\"iv\"") == true)
        #expect(context.entity(Movie.self, id: "vi") == nil, "the movie itself was not saved")
        #expect(context.sources(linkingTo: "iv", through: \Movie.$prequel) == ["v"])
    }

    @Test("The same source may relink its own target; a freed target can be taken")
    func relinkAndFree() throws {
        var context = try Self.movies()
        try Movie(id: "v", title: "Empire", prequel: .id("iv")).save(to: &context)
        try Movie(id: "v", title: "Empire", prequel: .null).save(to: &context)
        try Movie(id: "vi", title: "Jedi", prequel: .id("iv")).save(to: &context)
        #expect(context.ids(of: "vi", \Movie.$prequel) == ["iv"])
    }

    @Test("Uniqueness holds on the appending, fragment, relation-set and insert paths")
    func everyPath() async throws {
        var context = try Self.movies()
        try Movie(id: "a", title: "A", remakes: .ids(["r1"])).save(to: &context)
        #expect(throws: RelataError.self) {
            try Movie(id: "b", title: "B", remakes: .appending(ids: ["r2", "r1"])).save(to: &context)
        }
        #expect(context.entity(Movie.self, id: "b") == nil)
        #expect(throws: RelataError.self) {
            try Movie(id: "c", title: "C", remakes: .fragment([Movie(id: "r1", title: "R")])).save(to: &context)
        }
        #expect(throws: RelataError.self) {
            try Movie(id: "v", title: "V").insert("r1", into: \.$remakes, at: 0, in: &context)
        }
        #expect(context.sources(linkingTo: "r1", through: \Movie.$remakes) == ["a"])
        let store = try await Store.inMemory(entities: Movie.self)
        try await store.write { context in try Movie(id: "a", title: "A", remakes: .ids(["r1"])).save(to: &context) }
        let error = await #expect(throws: RelataError.self) {
            try await store.set(\Movie.$remakes, of: "z", to: .appending(ids: ["r1"]))
        }
        #expect(error?.code == .uniqueViolation)
        #expect(store.context.ids(of: "z", \Movie.$remakes).isEmpty)
    }
}
