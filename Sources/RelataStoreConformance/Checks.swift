import Foundation
import Relata

extension StoreConformance {
    /// Every check, in order.
    static let checks: [Check] = linkChecks + fetchChecks + erasureChecks + writeChecks + evolutionChecks
}

/// Opens a store over a new backend on `storage`.
func open(_ storage: StoreConformance.Storage, _ schema: EntitySchema = ConformanceModels.schema) async throws -> Store {
    try await Store(backend: try storage(), schema: schema)
}

/// Closes `store`, reopens `storage` and checks that the reopened store holds what `store` held.
@discardableResult
func reopen(_ store: Store, _ storage: StoreConformance.Storage, _ step: String) async throws -> Store {
    let written = Snapshot.text(store.context)
    try await store.close()
    let reopened = try await open(storage)
    let read = Snapshot.text(reopened.context)
    try expect(read == written, "\(step): the reopened store differs.\nwritten:\n\(written)\nread:\n\(read)")
    try reopened.context.checkInvariants()
    return reopened
}

/// The team of ``saveTeam(_:)``, a bill member m1 owns and a project member m2 is freely related to.
func saveTeamWithDynamicLinks(_ context: inout Context) throws {
    try saveTeam(&context)
    try Bill(id: "b").save(to: &context)
    try Member(id: "m1", name: "Ann").relate(.owns, Bill(id: "b"), in: &context)
    try Member(id: "m2", name: "Bo").relate(.free, Project(id: "x", title: "X"), in: &context)
}

/// A team with members, posts (each with an author and readers), a bill and projects.
func saveTeam(_ context: inout Context) throws {
    for (id, name) in [("m1", "Ann"), ("m2", "Bo"), ("m3", "Cy")] { try Member(id: id, name: name).save(to: &context) }
    try Team(
        id: "t", members: .ids(["m3", "m1", "m2"]),
        posts: .relation([
            Post(id: "p1", text: "one", author: .id("m1")),
            Post(id: "p2", text: "two", author: .id("m2"), readers: .ids(["m3", "m1"])),
            Post(id: "p3", text: "three", author: .id("m3")),
        ]),
        projects: .relation([Project(id: "x", title: "X")]),
        lead: .id("m1")
    ).save(to: &context)
}
