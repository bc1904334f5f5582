import Foundation
import Relata
import Testing

// `@EntityModel` applied to awkward inputs. This file compiling is most of the test.

/// A public entity with a `UUID` id, used from another module's point of view.
@EntityModel
public struct Workspace: Codable, Equatable {
    public let id: UUID
    public var title: String
    public var archived: Bool = false

    @Relationship(deleteRule: .cascade, inverse: \.workspace)
    public var boards: [Board]?
}

@EntityModel
public struct Board: Codable, Equatable {
    public let id: Int
    public var color: Color?

    @Relationship(.required, inverse: \.boards)
    public var workspace: Workspace?

    public enum Color: String, Codable, Sendable { case red, blue }
}

/// A generic entity.
@EntityModel
struct Box<Content: Codable & Sendable & Equatable>: Codable, Equatable {
    let id: String
    var content: Content

    @Relationship
    var owner: User? = nil
}

enum Namespace {
    /// A nested entity with property observers and a computed property.
    @EntityModel
    struct Nested: Codable {
        let id: Int
        var value: Int = 0 {
            didSet { _ = oldValue }
        }
        var doubled: Int { value * 2 }
        static let shared = "not a stored instance property"
    }
}

/// A user type called `Context` must not break generated code.
private struct Context {}

@Suite("Macro on awkward inputs")
struct MacroCompileTimeTests {
    @Test("UUID and Int ids, defaults, cascade across public types")
    func publicUUID() throws {
        var context = Relata.Context()
        let id = UUID()
        try Workspace(id: id, title: "W", boards: .relation([Board(id: 1), Board(id: 2, color: .red)]))
            .save(to: &context)
        #expect(context.entity(Workspace.self, id: id)?.archived == false)
        #expect(Board.query(2, in: context).related(\.$workspace)?.resolve()?.title == "W")
        try Workspace.delete(id: id, from: &context)
        #expect(context.count(of: Board.self) == 0)
    }

    @Test("Generic entities keep one table per specialization")
    func generic() throws {
        var context = Relata.Context()
        try Box(id: "a", content: 1, owner: .id("u")).save(to: &context)
        try Box(id: "a", content: "text").save(to: &context)
        #expect(context.entity(Box<Int>.self, id: "a")?.content == 1)
        #expect(context.entity(Box<String>.self, id: "a")?.content == "text")
        #expect(Box<Int>.query("a", in: context).related(\.$owner)?.id == "u")
    }

    @Test("Nested types, observers and computed properties")
    func nested() throws {
        var context = Relata.Context()
        try Namespace.Nested(id: 1, value: 2).save(to: &context)
        #expect(context.entity(Namespace.Nested.self, id: 1)?.doubled == 4)
    }
}
