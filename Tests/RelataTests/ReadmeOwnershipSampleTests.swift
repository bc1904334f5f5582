import Foundation
import Relata
import Testing

/// The guide's (Docs/Guide.md) "Ownership, dynamic relationships and the other relation kinds"
/// sample, statement for statement; the lines it marks as throwing are checked to throw.
enum ReadmeOwnershipSample {
    @EntityModel
    struct Team {
        let id: String
        @Relationship(deleteRule: .cascadeOrphans) var projects: [Project]? = nil  // erased with their last owner
        @Relationship(deleteRule: .deny) var invoices: [Invoice]? = nil            // no erasure while linked
    }

    @EntityModel
    struct Project {
        let id: String
        @Relationship(unique: true) var successor: Project? = nil  // succeeded by one project at most
        var lead: Alias<Person>? = nil                              // a typed id: no inverse, no cascade
        var milestones: [Milestone] = []                            // embedded values, stored inside
    }

    struct Milestone: Codable, Sendable, Equatable {
        var title: String
        var done = false
    }

    @EntityModel struct Invoice { let id: String }
    @EntityModel struct Person { let id: String; var name: String }
}

extension ReadmeOwnershipSample {
    @Suite("README sample: ownership and the other relation kinds")
    struct Tests {
        @Test("The sample does what the guide says")
        func sample() throws {
            var context = Context()
            try Team(id: "a", projects: .relation([Project(id: "p", lead: Alias("ann"))])).save(to: &context)
            try Team(id: "b", projects: .ids(["p"])).save(to: &context)
            try Team.delete(id: "a", from: &context)      // "p" survives: team "b" still owns it
            #expect(context.entity(Project.self, id: "p") != nil)
            #expect(context.sources(linkingTo: "p", through: \Team.$projects) == ["b"])
            #expect(context.count(of: "b", \Team.$projects) == 1)

            try Team(id: "b", invoices: .relation([Invoice(id: "i1")])).save(to: &context)
            let denied = try #require(throws: RelataError.self) { try Team.delete(id: "b", from: &context) }
            #expect(denied.code == .deleteDenied && context.entity(Team.self, id: "b") != nil)

            try Project(id: "q", successor: .id("p")).save(to: &context)
            let taken = try #require(throws: RelataError.self) { try Project(id: "r", successor: .id("p")).save(to: &context) }
            #expect(taken.code == .uniqueViolation && "\(taken)".contains("\"q\"") && "\(taken)".contains("\"r\""))
            #expect(context.entity(Project.self, id: "r") == nil)

            let project = try context.find(Project.self, id: "p")
            #expect(context.optionalInstance(from: project.lead!) == nil)
            let missing = try #require(throws: RelataError.self) { try context.instance(from: project.lead!) }
            #expect(missing.code == .entityNotFound && missing.entityType == "Person" && missing.id == "ann")

            let ann = Person(id: "ann", name: "Ann")
            try ann.save(to: &context)
            try ann.relate(.owns, Invoice(id: "i1"), in: &context)
            try ann.relate(.free, Project(id: "p"), in: &context)
            #expect(Invoice(id: "i1").related(.ownedBy, Person.self, in: context).map(\.name) == ["Ann"])
            #expect(context.optionalInstance(from: project.lead!)?.name == "Ann")

            // Embedded values are stored inside their entity and go with it.
            try Project(id: "p", lead: Alias("ann"), milestones: [Milestone(title: "beta")]).save(to: &context)
            #expect(context.entity(Project.self, id: "p")?.milestones == [Milestone(title: "beta")])
            try context.checkInvariants()
        }
    }
}
