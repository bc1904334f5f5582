import SwiftSyntax

/// A stored property of an entity, as the macro reads it.
struct StoredProperty {
    let name: String
    let type: TypeSyntax?
    let initializer: ExprSyntax?
    let isLet: Bool
    let relation: RelationProperty?

    /// `T?` / `Optional<T>` (for the generated patch strategy).
    var isOptional: Bool {
        guard let type else { return false }
        if type.is(OptionalTypeSyntax.self) { return true }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional" { return true }
        return false
    }
}

/// A `@Relationship` property.
struct RelationProperty {
    let name: String
    let ordinal: Int
    /// The related entity type, e.g. `User` for `User?` and `[User]?`.
    let target: TypeSyntax
    let toMany: Bool
    let required: Bool
    let unique: Bool
    let deleteRule: ExprSyntax?
    /// The inverse property name on the target, for mutual relations.
    let inverse: String?

    var directionality: String { inverse == nil ? "OneWay" : "Mutual" }
    var cardinality: String { toMany ? "ToMany" : "ToOne" }
    var constraints: String { required ? "Required" : "Optional" }

    var relationType: String {
        "Relata.Relation<\(target.trimmedDescription), Relata.Relations.\(directionality), "
            + "Relata.Relations.\(cardinality), Relata.Relations.\(constraints)>"
    }
}

extension AttributeSyntax {
    var isRelationship: Bool {
        let name = attributeName.trimmedDescription
        return name == "Relationship" || name == "Relata.Relationship"
    }
}
