import Relata

// Ownership (`.cascadeOrphans`) and refusal (`.deny`) models.

/// Owns nodes; a node can own nodes (cycles allowed). Erasing a node records a tombstone.
@EntityModel
struct Node: Codable, Equatable {
    let id: String
    @Relationship(deleteRule: .cascadeOrphans) var children: [Node]? = nil

    func didDelete(from context: inout Context) throws {
        try Tombstone(id: id).save(to: &context)
    }
}

/// Owns nodes through a mutual relation (a second kind of owner of the same type).
@EntityModel
struct Project: Codable, Equatable {
    let id: String
    @Relationship(deleteRule: .cascadeOrphans, inverse: \.projects) var nodes: [Node2]?
}

@EntityModel
struct Node2: Codable, Equatable {
    let id: String
    @Relationship(inverse: \.nodes) var projects: [Project]?
}

@EntityModel
struct Tombstone: Codable, Equatable {
    let id: String
}

/// An account cannot be erased while it has invoices; a customer cascades to its accounts.
@EntityModel
struct Customer: Codable, Equatable {
    let id: String
    @Relationship(deleteRule: .cascade) var accounts: [Account]? = nil
}

@EntityModel
struct Account: Codable, Equatable {
    let id: String
    @Relationship(deleteRule: .deny) var invoices: [Invoice]? = nil
}

@EntityModel
struct Invoice: Codable, Equatable {
    let id: String
}
