import Relata

/// A log line written into the context by the hooks of `Folder` and `File`.
@EntityModel
struct HookEvent: Codable, Equatable {
    let id: Int
    let text: String

    static func record(_ text: String, in context: inout Context) throws {
        try HookEvent(id: context.count(of: HookEvent.self), text: text).save(to: &context)
    }

    static func log(_ context: Context) -> [String] {
        HookEvent.query(in: context).sorted(by: \.id).resolve().map(\.text)
    }
}

@EntityModel
struct Folder: Codable, Equatable {
    let id: String
    var name: String?

    @Relationship(deleteRule: .cascade, inverse: \.folder)
    var files: [File]?

    func willSave(to context: inout Context) throws { try HookEvent.record("willSave folder \(id)", in: &context) }
    func didSave(to context: inout Context) throws { try HookEvent.record("didSave folder \(id)", in: &context) }
    func willDelete(from context: inout Context) throws { try HookEvent.record("willDelete folder \(id)", in: &context) }
    func didDelete(from context: inout Context) throws { try HookEvent.record("didDelete folder \(id)", in: &context) }
}

@EntityModel
struct File: Codable, Equatable {
    let id: String
    var size: Int?
    var tags: [String] = []

    @Relationship(inverse: \.files)
    var folder: Folder?

    func willSave(to context: inout Context) throws { try HookEvent.record("willSave file \(id)", in: &context) }
    func didSave(to context: inout Context) throws { try HookEvent.record("didSave file \(id)", in: &context) }
    func willDelete(from context: inout Context) throws {
        if id == "locked" { throw RelataError(code: .init("locked"), entityType: "File", id: id, message: "locked") }
        try HookEvent.record("willDelete file \(id)", in: &context)
    }
    func didDelete(from context: inout Context) throws { try HookEvent.record("didDelete file \(id)", in: &context) }
}

/// Entities with `Int` and `UUID`-like ids and a one-to-one relation.
@EntityModel
struct Person: Codable, Equatable {
    let id: Int
    var name: String

    @Relationship(inverse: \.owner)
    var passport: Passport?

    @Relationship
    var friends: [Person]? = nil

    @Relationship(inverse: \.mentor)
    var mentees: [Person]?

    @Relationship(inverse: \.mentees)
    var mentor: Person?
}

@EntityModel
struct Passport: Codable, Equatable {
    let id: Int

    @Relationship(inverse: \.passport)
    var owner: Person?
}
