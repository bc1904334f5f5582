import SwiftDiagnostics
import SwiftSyntax

/// Reads the stored properties and relations of a struct, collecting diagnostics for misuse.
struct EntityModelParser {
    var diagnostics: [Diagnostic] = []
    /// The index declarations (`@Index<Self>(\.age) private var ageIndex`), read by
    /// ``storedProperties(of:)``: they are not stored properties.
    var indexes: [IndexProperty] = []

    mutating func storedProperties(of structDecl: StructDeclSyntax) -> [StoredProperty] {
        var properties: [StoredProperty] = []
        var ordinal = 0
        for member in structDecl.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let isStatic = variable.modifiers.contains { $0.name.tokenKind == .keyword(.static) }
            if isStatic { continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            if let index = variable.attributes.lazy.compactMap({ $0.as(AttributeSyntax.self) }).compactMap(IndexProperty.init).first {
                indexes.append(index)
                continue
            }
            let relationship = variable.attributes.compactMap { $0.as(AttributeSyntax.self) }.first(where: \.isRelationship)
            for binding in variable.bindings {
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                if let accessors = binding.accessorBlock, !accessors.isObserversOnly { continue }
                let name = pattern.identifier.trimmed
                var relation: RelationProperty?
                if let relationship {
                    relation = parseRelation(relationship, binding: binding, name: name, isLet: isLet, ordinal: ordinal)
                    ordinal += 1
                }
                properties.append(StoredProperty(
                    name: name,
                    type: binding.typeAnnotation?.type.trimmed,
                    initializer: binding.initializer?.value.trimmed,
                    isLet: isLet,
                    relation: relation
                ))
            }
        }
        return properties
    }

    private mutating func parseRelation(
        _ attribute: AttributeSyntax, binding: PatternBindingSyntax, name: TokenSyntax, isLet: Bool, ordinal: Int
    ) -> RelationProperty? {
        if isLet {
            diagnostics.append(Diagnostic(node: binding, message: EntityModelDiagnostic.relationNotVar))
            return nil
        }
        guard let type = binding.typeAnnotation?.type, let (target, toMany) = Self.relationTarget(type) else {
            diagnostics.append(Diagnostic(node: binding, message: EntityModelDiagnostic.relationType))
            return nil
        }
        let arguments = attribute.arguments?.as(LabeledExprListSyntax.self) ?? []
        if arguments.isEmpty, binding.initializer == nil {
            let fixed = binding.with(\.initializer, InitializerClauseSyntax(
                equal: .equalToken(leadingTrivia: .space, trailingTrivia: .space),
                value: NilLiteralExprSyntax()
            ))
            diagnostics.append(Diagnostic(
                node: binding, message: EntityModelDiagnostic.bareRelationship,
                fixIt: FixIt(message: AddNilFixIt(), changes: [.replace(oldNode: Syntax(binding), newNode: Syntax(fixed))])
            ))
            return nil
        }
        var required = false
        var unique = false
        var deleteRule: ExprSyntax?
        var inverse: TokenSyntax?
        for argument in arguments {
            switch argument.label?.text {
            case nil:
                // `.required` or `RelationOption.required`.
                guard let option = argument.expression.as(MemberAccessExprSyntax.self), option.declName.baseName.text == "required" else {
                    diagnostics.append(Diagnostic(node: argument, message: EntityModelDiagnostic.unknownOption))
                    return nil
                }
                required = true
            case "deleteRule":
                deleteRule = argument.expression.trimmed
            case "unique":
                guard let literal = argument.expression.as(BooleanLiteralExprSyntax.self) else {
                    diagnostics.append(Diagnostic(node: argument, message: EntityModelDiagnostic.uniqueNotLiteral))
                    return nil
                }
                unique = literal.literal.tokenKind == .keyword(.true)
            case "inverse":
                guard let keyPath = argument.expression.as(KeyPathExprSyntax.self),
                    let last = keyPath.components.last?.component.as(KeyPathPropertyComponentSyntax.self)
                else {
                    diagnostics.append(Diagnostic(node: argument, message: EntityModelDiagnostic.inverseNotKeyPath))
                    return nil
                }
                inverse = .identifier(String(last.declName.baseName.text.drop(while: { $0 == "$" })))
            default:
                break
            }
        }
        return RelationProperty(
            name: name, ordinal: ordinal, target: target, toMany: toMany,
            required: required, unique: unique, deleteRule: deleteRule, inverse: inverse
        )
    }

    /// `T?` → (T, false); `[T]?` → (T, true); anything else → nil.
    static func relationTarget(_ type: TypeSyntax) -> (TypeSyntax, Bool)? {
        var wrapped: TypeSyntax
        if let optional = type.as(OptionalTypeSyntax.self) {
            wrapped = optional.wrappedType
        } else if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
            let argument = identifier.genericArgumentClause?.arguments.first
        {
            guard case .type(let argumentType) = argument.argument else { return nil }
            wrapped = argumentType
        } else {
            return nil
        }
        wrapped = wrapped.trimmed
        if let array = wrapped.as(ArrayTypeSyntax.self) {
            return (array.element.trimmed, true)
        }
        return (wrapped, false)
    }
}

extension AccessorBlockSyntax {
    /// Whether the block only has `willSet`/`didSet` (the property is still stored).
    var isObserversOnly: Bool {
        guard case .accessors(let accessors) = self.accessors else { return false }
        return accessors.allSatisfy {
            $0.accessorSpecifier.tokenKind == .keyword(.willSet) || $0.accessorSpecifier.tokenKind == .keyword(.didSet)
        }
    }
}
