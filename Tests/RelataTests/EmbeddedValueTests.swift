import Foundation
import Relata
import Testing

/// Embedded values (Realm's embedded objects): plain nested Codable structs and arrays of them.
@EntityModel
struct Recipe: Codable, Equatable {
    let id: String
    var ingredients: [Ingredient] = []
    var nutrition: Nutrition?

    struct Ingredient: Codable, Equatable, Sendable {
        var name: String
        var grams: Int
    }

    struct Nutrition: Codable, Equatable, Sendable {
        var calories: Int
    }
}

@Suite("Embedded values")
struct EmbeddedValueTests {
    @Test("Nested structs and arrays live inside their entity, merge by its strategy, and go with it")
    func embedded() throws {
        var context = Context()
        try Recipe(id: "r", ingredients: [.init(name: "flour", grams: 500)], nutrition: .init(calories: 900)).save(to: &context)
        // A fragment without nutrition keeps it (patch); appending merges the array.
        try Recipe(id: "r", ingredients: [.init(name: "salt", grams: 5)])
            .save(to: &context, options: MergeStrategy(.patch(\.nutrition), .append(\.ingredients)))
        let recipe = try context.find(Recipe.self, id: "r")
        #expect(recipe.ingredients.map(\.name) == ["flour", "salt"])
        #expect(recipe.nutrition == .init(calories: 900))
        try Recipe.delete(id: "r", from: &context)
        #expect(context.entity(Recipe.self, id: "r") == nil)
    }

    @Test("Embedded values are stored with their entity by a Store and come back on reopening")
    func persisted() async throws {
        let harness = try StoreHarness(.sqlite)
        defer { harness.remove() }
        let schema = EntitySchema(Recipe.self)
        let store = try await harness.open(schema: schema)
        try await store.save(Recipe(id: "r", ingredients: [.init(name: "egg", grams: 60)], nutrition: .init(calories: 80)))
        try await store.close()
        let reopened = try await harness.open(schema: schema)
        #expect(reopened.context.entity(Recipe.self, id: "r")?.ingredients == [.init(name: "egg", grams: 60)])
        #expect(reopened.context.entity(Recipe.self, id: "r")?.nutrition?.calories == 80)
    }
}
