import SwiftSyntax

/// An index declaration on an entity (`@Index<Self>(\.lastName, \.firstName) private var
/// nameIndex`): its kind and the key paths as written.
struct IndexProperty {
    /// The `IndexDeclaration` factory the kind is made with: `sorted`, `hashed`, `unique`,
    /// `fullText`.
    let factory: String
    let keyPaths: [ExprSyntax]
    /// A `Unique` declaration's `collisions:` argument, as written.
    let collisions: ExprSyntax?

    /// The declaration `attribute` makes, if it is one of Relata's index wrappers.
    init?(_ attribute: AttributeSyntax) {
        let name: String
        if let identifier = attribute.attributeName.as(IdentifierTypeSyntax.self) {
            name = identifier.name.text
        } else if let member = attribute.attributeName.as(MemberTypeSyntax.self),
            member.baseType.as(IdentifierTypeSyntax.self)?.name.text == "Relata"
        {
            name = member.name.text
        } else {
            return nil
        }
        switch name {
        case "Index": factory = "sorted"
        case "HashIndex": factory = "hashed"
        case "Unique": factory = "unique"
        case "FullTextIndex": factory = "fullText"
        default: return nil
        }
        let arguments = attribute.arguments?.as(LabeledExprListSyntax.self) ?? []
        keyPaths = arguments.filter { $0.label == nil && $0.expression.is(KeyPathExprSyntax.self) }.map(\.expression.trimmed)
        collisions = factory == "unique" ? arguments.first { $0.label?.text == "collisions" }?.expression.trimmed : nil
    }

    /// `.sorted(\.age)`, `.unique(\.email, collisions: .throw)`: an element of the generated
    /// `_relataIndexes`.
    var declaration: ExprSyntax {
        var arguments = keyPaths.map { LabeledExprSyntax(expression: $0) }
        if let collisions { arguments.append(LabeledExprSyntax(label: "collisions", expression: collisions)) }
        let list = LabeledExprListSyntax(
            arguments.enumerated().map { index, argument in
                argument
                    .with(\.leadingTrivia, index == 0 ? [] : .space)
                    .with(\.trailingComma, index == arguments.count - 1 ? nil : .commaToken())
            }
        )
        return ".\(raw: factory)(\(list))"
    }
}
