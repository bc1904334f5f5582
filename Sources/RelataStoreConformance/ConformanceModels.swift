import Foundation
import Relata

// The models the conformance checks write: one of every relation kind Relata has. Internal to
// this module (they never clash with an app's own types); stored under names of their own.

@EntityModel
struct Member: Codable, Equatable {
    static var storedTypeName: String { "RelataConformance.Member" }
    let id: String
    var name: String
    @Relationship(inverse: \.members) var teams: [Team]? = nil
}

@EntityModel
struct Team: Codable, Equatable {
    static var storedTypeName: String { "RelataConformance.Team" }
    let id: String
    @Relationship(inverse: \.teams) var members: [Member]? = nil
    @Relationship(deleteRule: .cascade, inverse: \.team) var posts: [Post]? = nil
    @Relationship(deleteRule: .deny) var bills: [Bill]? = nil
    @Relationship(deleteRule: .cascadeOrphans) var projects: [Project]? = nil
    @Relationship(unique: true) var lead: Member? = nil
}

@EntityModel
struct Post: Codable, Equatable {
    static var storedTypeName: String { "RelataConformance.Post" }
    let id: String
    var text: String
    @Relationship(.required, inverse: \.posts) var team: Team? = nil
    @Relationship(.required) var author: Member? = nil
    @Relationship var readers: [Member]? = nil
}

@EntityModel
struct Bill: Codable, Equatable {
    static var storedTypeName: String { "RelataConformance.Bill" }
    let id: String
}

@EntityModel
struct Project: Codable, Equatable {
    static var storedTypeName: String { "RelataConformance.Project" }
    let id: String
    var title: String
}

/// A later version of `Project`: an added optional property and an added relation.
@EntityModel
struct ProjectV2: Codable, Equatable {
    static var storedTypeName: String { "RelataConformance.Project" }
    let id: String
    var title: String
    var budget: Int?
    @Relationship var owners: [Member]? = nil
}

/// A version of `Project` that no stored row decodes as: a new required property.
@EntityModel
struct ProjectV3: Codable, Equatable {
    static var storedTypeName: String { "RelataConformance.Project" }
    let id: String
    var deadline: Date
}

/// A version of `Project` with an added property that has a default: rows stored before it read
/// the default.
@EntityModel
struct ProjectV4: Codable, Equatable {
    static var storedTypeName: String { "RelataConformance.Project" }
    let id: String
    var title: String
    var priority: Int = 3
    var tags = ["new"]
}

/// One property of every kind a row stores as a column of its own, and nested values stored whole.
@EntityModel
struct Sample: Codable, Equatable {
    enum Mood: String, Codable { case calm, loud }
    enum Level: Int, Codable { case low = 1, high = 9 }
    struct Place: Codable, Equatable { var name: String; var point: [Double] }

    static var storedTypeName: String { "RelataConformance.Sample" }
    let id: String
    var small: Int8
    var huge: UInt64
    var count: Int
    var ratio: Double
    var single: Float
    var flag: Bool
    var text: String
    var date: Date
    var uuid: UUID
    var url: URL
    var bytes: Data
    var mood: Mood
    var level: Level?
    var note: String?
    var when: Date?
    var place: Place
    var places: [String: Place]?
    var list: [Int]
}

enum ConformanceModels {
    static let all: [any EntityModelProtocol.Type] = [Member.self, Team.self, Post.self, Bill.self, Project.self]
    static var schema: EntitySchema { EntitySchema(all) }
}
