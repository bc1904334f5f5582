import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@EntityModel`: generates the memberwise initialiser (member role) and the
/// `EntityModelProtocol` conformance with relation descriptors, save, delete, normalize and
/// patch (extension role).
///
/// Every declaration is built from syntax nodes: the struct's own names, types and expressions
/// are interpolated as nodes (or as literals), never as text.
public struct EntityModelMacro: MemberMacro, ExtensionMacro {
    // MARK: Member role: the memberwise initialiser

    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: EntityModelDiagnostic.notAStruct))
            return []
        }
        var parser = EntityModelParser()
        let properties = parser.storedProperties(of: structDecl)
        parser.diagnostics.forEach(context.diagnose)
        guard parser.diagnostics.isEmpty else { return [] }
        // `id` may be stored or computed (`var id: String { "\(kind)-\(number)" }`).
        guard properties.contains(where: { $0.name.text == "id" }) || declaresComputedID(structDecl) else {
            context.diagnose(Diagnostic(node: structDecl.name, message: EntityModelDiagnostic.missingID))
            return []
        }
        let access = accessModifiers(of: structDecl)
        // The relation targets as written, resolved here in the struct's own scope: the extension
        // is at file scope, where a sibling nested type (`Outer.Owner` written `Owner`) is not found.
        var members: [DeclSyntax] = properties.compactMap(\.relation).map {
            "@_documentation(visibility: private) \(access)typealias \($0.targetAlias) = \($0.target)"
        }
        let hasInit = structDecl.memberBlock.members.contains { $0.decl.is(InitializerDeclSyntax.self) }
        if !hasInit {
            members.append(memberwiseInit(properties, access: access))
        }
        members += ColumnCodingDecls.decls(for: structDecl, properties: properties, access: access)
        return members
    }

    /// Whether the struct declares an instance property `id` with accessors (computed).
    static func declaresComputedID(_ structDecl: StructDeclSyntax) -> Bool {
        structDecl.memberBlock.members.contains { member in
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
            else { return false }
            return variable.bindings.contains {
                $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "id" && $0.accessorBlock != nil
            }
        }
    }

    static func memberwiseInit(_ properties: [StoredProperty], access: DeclModifierListSyntax) -> DeclSyntax {
        var parameters: [FunctionParameterSyntax] = []
        var assignments: [CodeBlockItemSyntax] = []
        for property in properties {
            if let relation = property.relation {
                // The declaration's initial relation (`= .relation(V1())`) is the default; `= nil`
                // is `.none`.
                let initial: ExprSyntax = property.initializer.flatMap { $0.is(NilLiteralExprSyntax.self) ? nil : $0 } ?? ".none"
                parameters.append("\(property.name): \(relation.relationType) = \(initial)")
                assignments.append("self.\(relation.storage) = Relata.Relationship(relation: \(property.name))")
                continue
            }
            if property.isLet, property.initializer != nil { continue }
            guard let type = property.type ?? property.literalType else { continue }
            if let initializer = property.initializer {
                parameters.append("\(property.name): \(type) = \(initializer)")
            } else if property.isOptional, !property.isLet {
                parameters.append("\(property.name): \(type) = nil")
            } else {
                parameters.append("\(property.name): \(type)")
            }
            assignments.append("self.\(property.name) = \(property.name)")
        }
        let parameterList = FunctionParameterListSyntax(
            parameters.enumerated().map { index, parameter in
                parameter
                    .with(\.leadingTrivia, .newline + .spaces(4))
                    .with(\.trailingComma, index == parameters.count - 1 ? nil : .commaToken())
            }
        )
        return """
            \(access)init(\(parameterList)
            ) {
                \(CodeBlockItemListSyntax(assignments.enumerated().map { $1.with(\.leadingTrivia, $0 == 0 ? [] : .newline) }))
            }
            """
    }

    // MARK: Extension role: the conformance

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else { return [] }
        var parser = EntityModelParser()
        let properties = parser.storedProperties(of: structDecl)
        guard parser.diagnostics.isEmpty, properties.contains(where: { $0.name.text == "id" }) || declaresComputedID(structDecl) else { return [] }
        let access = accessModifiers(of: structDecl)
        let relations = properties.compactMap(\.relation)
        let extended = TypeSyntax(type.trimmed)
        // A generic struct is named `Self` inside its extension (its name alone needs arguments).
        let type: TypeSyntax = structDecl.genericParameterClause == nil ? extended : "Self"

        var members: [DeclSyntax] = []
        for relation in relations {
            members.append(keyDecl(relation, access: access))
            members.append(descriptorDecl(relation, source: type, access: access))
        }
        members.append(saveDecl(relations, resolvesCollisions: parser.indexes.contains { $0.factory == "unique" }, type: type, access: access))
        members.append(
            """
            \(access)func delete(from context: inout Relata.Context) throws {
                try context._delete(self)
            }
            """
        )
        members.append(
            function("\(access)mutating func normalize()", relations.map { "self.\($0.projected) = .none" })
        )
        let patchExpressions: [ExprSyntax] = properties.filter { $0.relation == nil && !$0.isLet && $0.isOptional }
            .map { ".patch(\\\(type).\($0.name))" }
        let patches = LabeledExprListSyntax(
            patchExpressions.enumerated().map { index, expression in
                LabeledExprSyntax(
                    leadingTrivia: index == 0 ? [] : .space, expression: expression,
                    trailingComma: index == patchExpressions.count - 1 ? nil : .commaToken()
                )
            }
        )
        members.append(
            """
            \(access)static var patch: Relata.MergeStrategy<\(type)> {
                Relata.MergeStrategy<\(type)>(\(patches))
            }
            """
        )
        members.append(
            function(
                "\(access)static func _relataVisitRelations<V: Relata._RelationVisitor>(_ visitor: inout V) throws",
                relations.map {
                    "try visitor.visit(Self.\($0.descriptorName), \\\(type).\($0.projected), storage: \\\(type).\($0.storage))"
                }
            )
        )
        let lookups: [CodeBlockItemSyntax] = relations.map {
            "if keyPath == \\\(type).\($0.projected) { return Self.\($0.keyName) }"
        }
        members.append(
            function(
                "\(access)static func _relataRelationKey(_ keyPath: Swift.AnyKeyPath) -> Relata._AnyRelationKey?",
                lookups + ["return nil"]
            )
        )
        let storageLookups: [CodeBlockItemSyntax] = relations.map {
            "if keyPath == \\\(type).\($0.projected) { return \\\(type).\($0.storage) }"
        }
        members.append(
            function(
                "\(access)static func _relataStorageKeyPath(_ keyPath: Swift.AnyKeyPath) -> Swift.AnyKeyPath?",
                storageLookups + ["return nil"]
            )
        )
        // Built here, in the model's module, so the store paths are specialized for this type.
        members.append(
            """
            \(access)static var _relataStoreDescriptor: Relata._EntityStoreDescriptor {
                Relata._EntityStoreDescriptor(Self.self)
            }
            """
        )
        if !parser.indexes.isEmpty {
            let list = ArrayElementListSyntax(
                parser.indexes.enumerated().map { index, declaration in
                    ArrayElementSyntax(
                        leadingTrivia: .newline, expression: declaration.declaration,
                        trailingComma: index == parser.indexes.count - 1 ? nil : .commaToken()
                    )
                }
            )
            members.append(
                """
                \(access)static var _relataIndexes: [Relata.IndexDeclaration<\(type)>] {
                    [\(list)
                    ]
                }
                """
            )
        }
        members += CodableDecls.decls(for: structDecl, properties: properties, access: access)
        let checks: [CodeBlockItemSyntax] = relations.compactMap { relation in
            relation.inverse.map {
                "Relata._relataInverseMustBeMutual(\\\(type).\(relation.projected), \\\(type).\(relation.targetAlias).$\($0))"
            }
        }
        if !checks.isEmpty {
            members.append(function("private static func __relataCheckInverses()", checks))
        }
        let conformance: InheritanceClauseSyntax? =
            protocols.isEmpty ? nil : InheritanceClauseSyntax(inheritedTypes: [InheritedTypeSyntax(type: "Relata.EntityModelProtocol" as TypeSyntax)])
        let memberList = MemberBlockItemListSyntax(
            members.enumerated().map { index, member in
                MemberBlockItemSyntax(decl: member.with(\.leadingTrivia, index == 0 ? .newline : .newlines(2)))
            }
        )
        return [
            ExtensionDeclSyntax(
                extendedType: extended, inheritanceClause: conformance,
                memberBlock: MemberBlockSyntax(members: memberList, rightBrace: .rightBraceToken(leadingTrivia: .newline))
            )
        ]
    }

    static func keyDecl(_ relation: RelationProperty, access: DeclModifierListSyntax) -> DeclSyntax {
        """
        \(access)static var \(relation.keyName): Relata._AnyRelationKey {
            Relata._AnyRelationKey(ordinal: \(literal: relation.ordinal), name: \(literal: relation.name.text), toMany: \(literal: relation.toMany))
        }
        """
    }

    static func descriptorDecl(_ relation: RelationProperty, source: TypeSyntax, access: DeclModifierListSyntax) -> DeclSyntax {
        let target: TypeSyntax = "\(source).\(relation.targetAlias)"
        let inverse: ExprSyntax = relation.inverse.map { "\(target).\(TokenSyntax.identifier("__relataKey_" + $0.text))" } ?? "nil"
        let deleteRule = relation.deleteRule ?? ".nullify"
        var arguments: [LabeledExprSyntax] = [
            LabeledExprSyntax(label: "key", expression: ExprSyntax("Self.\(relation.keyName)")),
            LabeledExprSyntax(label: "inverse", expression: inverse),
            LabeledExprSyntax(label: "deleteRule", expression: deleteRule),
            LabeledExprSyntax(label: "isRequired", expression: BooleanLiteralExprSyntax(relation.required)),
        ]
        if relation.unique { arguments.append(LabeledExprSyntax(label: "isUnique", expression: BooleanLiteralExprSyntax(true))) }
        let list = LabeledExprListSyntax(
            arguments.enumerated().map { index, argument in
                argument
                    .with(\.leadingTrivia, .newline)
                    .with(\.trailingComma, index == arguments.count - 1 ? nil : .commaToken())
            }
        )
        return """
            \(access)static var \(relation.descriptorName): Relata.RelationDescriptor<\(source), \(target)> {
                Relata.RelationDescriptor(\(list)
                )
            }
            """
    }

    static func saveDecl(_ relations: [RelationProperty], resolvesCollisions: Bool, type: TypeSyntax, access: DeclModifierListSyntax) -> DeclSyntax {
        var statements: [CodeBlockItemSyntax] = relations.contains(where: \.unique) ? ["try context._checkUnique(self)"] : []
        statements.append("try self.willSave(to: &context)")
        // `@Unique`: other entities holding the values go to the resolver before this is stored.
        if resolvesCollisions { statements.append("try context._resolveCollisions(self)") }
        statements.append("context._upsert(self, options: options)")
        statements += relations.map { "try context._saveRelation(self.\($0.projected), of: self.id, Self.\($0.descriptorName))" }
        statements.append("try self.didSave(to: &context)")
        return function(
            "\(access)func save(to context: inout Relata.Context, options: Relata.MergeStrategy<\(type)>) throws", statements
        )
    }

    /// A function or initializer declaration: `signature` with one statement per line (an empty
    /// body for none).
    static func function(_ signature: DeclSyntax, _ statements: [CodeBlockItemSyntax]) -> DeclSyntax {
        if let function = signature.as(FunctionDeclSyntax.self) { return DeclSyntax(withBody(function, statements)) }
        if let initializer = signature.as(InitializerDeclSyntax.self) { return DeclSyntax(withBody(initializer, statements)) }
        return signature
    }

    private static func withBody<Decl: WithOptionalCodeBlockSyntax>(_ decl: Decl, _ statements: [CodeBlockItemSyntax]) -> Decl {
        var decl = decl
        let items = statements.map { $0.with(\.leadingTrivia, .newline) }
        decl.body = CodeBlockSyntax(
            leftBrace: .leftBraceToken(leadingTrivia: .space),
            statements: CodeBlockItemListSyntax(items),
            rightBrace: .rightBraceToken(leadingTrivia: items.isEmpty ? [] : .newline)
        )
        return decl
    }

    /// `public` / `package` when the struct is, so the conformance can be used where the type can.
    static func accessModifiers(of structDecl: StructDeclSyntax) -> DeclModifierListSyntax {
        for modifier in structDecl.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open):
                return [DeclModifierSyntax(name: .keyword(.public, trailingTrivia: .space))]
            case .keyword(.package):
                return [DeclModifierSyntax(name: .keyword(.package, trailingTrivia: .space))]
            default:
                continue
            }
        }
        return []
    }
}
