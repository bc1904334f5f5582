import SwiftSyntax
import SwiftSyntaxBuilder

/// A stored property of an entity, as the macro reads it.
struct StoredProperty {
    let name: TokenSyntax
    let type: TypeSyntax?
    let initializer: ExprSyntax?
    let isLet: Bool
    let relation: RelationProperty?

    /// The type of a property declared without one whose initial value is a literal
    /// (`var seen = false`), as Swift infers it; `nil` for any other initial value.
    var literalType: TypeSyntax? {
        guard let initializer else { return nil }
        if initializer.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if initializer.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if initializer.is(FloatLiteralExprSyntax.self) { return "Double" }
        if let string = initializer.as(StringLiteralExprSyntax.self),
           string.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) }) {
            return "String"
        }
        return nil
    }

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
    /// The property's name.
    let name: TokenSyntax
    let ordinal: Int
    /// The related entity type, e.g. `User` for `User?` and `[User]?`.
    let target: TypeSyntax
    let toMany: Bool
    let required: Bool
    let unique: Bool
    let deleteRule: ExprSyntax?
    /// The inverse property's name on the target, for mutual relations.
    let inverse: TokenSyntax?

    /// `$name`: the projected ``Relation``.
    var projected: TokenSyntax { .identifier("$" + name.text) }
    /// `_name`: the wrapper's storage.
    var storage: TokenSyntax { .identifier("_" + name.text) }
    /// The static relation key.
    var keyName: TokenSyntax { .identifier("__relataKey_" + name.text) }
    /// The static relation descriptor.
    var descriptorName: TokenSyntax { .identifier("__relata_" + name.text) }
    /// The type alias of the target, declared in the struct's own scope.
    var targetAlias: TokenSyntax { .identifier("__RelataTarget_" + name.text) }

    var relationType: TypeSyntax {
        let directionality: TokenSyntax = inverse == nil ? "OneWay" : "Mutual"
        let cardinality: TokenSyntax = toMany ? "ToMany" : "ToOne"
        let constraints: TokenSyntax = required ? "Required" : "Optional"
        return "Relata.Relation<\(target), Relata.Relations.\(directionality), Relata.Relations.\(cardinality), Relata.Relations.\(constraints)>"
    }
}

extension AttributeSyntax {
    var isRelationship: Bool {
        let name = attributeName.trimmedDescription
        return name == "Relationship" || name == "Relata.Relationship"
    }
}
