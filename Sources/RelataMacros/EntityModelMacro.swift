import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@EntityModel`: generates the memberwise initialiser (member role) and the
/// `EntityModelProtocol` conformance with relation descriptors, save, delete, normalize and
/// patch (extension role).
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
        guard properties.contains(where: { $0.name == "id" }) else {
            context.diagnose(Diagnostic(node: structDecl.name, message: EntityModelDiagnostic.missingID))
            return []
        }
        let access = accessLevel(of: structDecl)
        // The relation targets as written, resolved here in the struct's own scope: the extension
        // is at file scope, where a sibling nested type (`Outer.Owner` written `Owner`) is not found.
        var members: [DeclSyntax] = properties.compactMap(\.relation).map {
            "@_documentation(visibility: private) \(raw: access)typealias __RelataTarget_\(raw: $0.name) = \(raw: $0.target.trimmedDescription)"
        }
        let hasInit = structDecl.memberBlock.members.contains { $0.decl.is(InitializerDeclSyntax.self) }
        if !hasInit {
            members.append(memberwiseInit(properties, access: access))
        }
        return members
    }

    static func memberwiseInit(_ properties: [StoredProperty], access: String) -> DeclSyntax {
        var parameters: [String] = []
        var assignments: [String] = []
        for property in properties {
            if let relation = property.relation {
                parameters.append("\(property.name): \(relation.relationType) = .none")
                assignments.append("self._\(property.name) = Relata.Relationship(relation: \(property.name))")
                continue
            }
            if property.isLet, property.initializer != nil { continue }
            guard let type = property.type else { continue }
            var parameter = "\(property.name): \(type.trimmedDescription)"
            if let initializer = property.initializer {
                parameter += " = \(initializer.trimmedDescription)"
            } else if property.isOptional, !property.isLet {
                parameter += " = nil"
            }
            parameters.append(parameter)
            assignments.append("self.\(property.name) = \(property.name)")
        }
        return """
            \(raw: access)init(
                \(raw: parameters.joined(separator: ",\n    "))
            ) {
                \(raw: assignments.joined(separator: "\n    "))
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
        guard parser.diagnostics.isEmpty, properties.contains(where: { $0.name == "id" }) else { return [] }
        let access = accessLevel(of: structDecl)
        let relations = properties.compactMap(\.relation)
        let typeName = type.trimmedDescription
        let conformance = protocols.isEmpty ? "" : ": Relata.EntityModelProtocol"

        var members: [String] = []
        for relation in relations {
            members.append(keyDecl(relation, access: access))
            members.append(descriptorDecl(relation, source: typeName, access: access))
        }
        members.append(saveDecl(relations, typeName: typeName, access: access))
        members.append("""
            \(access)func delete(from context: inout Relata.Context) throws {
                try context._delete(self)
            }
            """)
        let normalizations = relations.map { "self.$\($0.name) = .none" }
        members.append(function("\(access)mutating func normalize()", normalizations))
        let patches = properties.filter { $0.relation == nil && !$0.isLet && $0.isOptional }
            .map { ".patch(\\\(typeName).\($0.name))" }
        members.append("""
            \(access)static var patch: Relata.MergeStrategy<\(typeName)> {
                Relata.MergeStrategy<\(typeName)>(\(patches.joined(separator: ", ")))
            }
            """)
        let visits = relations.map { "try visitor.visit(Self.__relata_\($0.name), \\\(typeName).$\($0.name))" }
        members.append(function(
            "\(access)static func _relataVisitRelations<V: Relata._RelationVisitor>(_ visitor: inout V) throws",
            visits
        ))
        let lookups = relations.map {
            "if keyPath == \\\(typeName).$\($0.name) { return Self.__relataKey_\($0.name) }"
        }
        members.append("""
            \(access)static func _relataRelationKey(_ keyPath: Swift.AnyKeyPath) -> Relata._AnyRelationKey? {
                \((lookups + ["return nil"]).joined(separator: "\n    "))
            }
            """)
        let storageLookups = relations.map {
            "if keyPath == \\\(typeName).$\($0.name) { return \\\(typeName)._\($0.name) }"
        }
        members.append("""
            \(access)static func _relataStorageKeyPath(_ keyPath: Swift.AnyKeyPath) -> Swift.AnyKeyPath? {
                \((storageLookups + ["return nil"]).joined(separator: "\n    "))
            }
            """)
        // Built here, in the model's module, so the store paths are specialized for this type.
        members.append("""
            \(access)static var _relataStoreSupport: Relata._EntityStoreSupport {
                Relata._EntityStoreSupport(Self.self)
            }
            """)
        let checks = relations.compactMap { relation in
            relation.inverse.map {
                "Relata._relataInverseMustBeMutual(\\\(typeName).$\(relation.name), \\\(typeName).__RelataTarget_\(relation.name).$\($0))"
            }
        }
        if !checks.isEmpty {
            members.append("""
                private static func __relataCheckInverses() {
                    \(checks.joined(separator: "\n    "))
                }
                """)
        }
        let source = """
            extension \(typeName)\(conformance) {
            \(members.joined(separator: "\n\n"))
            }
            """
        return [try ExtensionDeclSyntax("\(raw: source)")]
    }

    static func keyDecl(_ relation: RelationProperty, access: String) -> String {
        """
        \(access)static var __relataKey_\(relation.name): Relata._AnyRelationKey {
            Relata._AnyRelationKey(ordinal: \(relation.ordinal), name: "\(relation.name)", toMany: \(relation.toMany))
        }
        """
    }

    static func descriptorDecl(_ relation: RelationProperty, source: String, access: String) -> String {
        let target = "\(source).__RelataTarget_\(relation.name)"
        let inverse = relation.inverse.map { "\(target).__relataKey_\($0)" } ?? "nil"
        let deleteRule = relation.deleteRule?.trimmedDescription ?? ".nullify"
        return """
            \(access)static var __relata_\(relation.name): Relata.RelationDescriptor<\(source), \(target)> {
                Relata.RelationDescriptor(
                    key: Self.__relataKey_\(relation.name),
                    inverse: \(inverse),
                    deleteRule: \(deleteRule),
                    isRequired: \(relation.required)\(relation.unique ? ",\n            isUnique: true" : "")
                )
            }
            """
    }

    static func saveDecl(_ relations: [RelationProperty], typeName: String, access: String) -> String {
        let saves = relations.map {
            "try context._saveRelation(self.$\($0.name), of: self.id, Self.__relata_\($0.name))"
        }
        return function(
            "\(access)func save(to context: inout Relata.Context, options: Relata.MergeStrategy<\(typeName)>) throws",
            (relations.contains(where: \.unique) ? ["try context._checkUnique(self)"] : [])
                + ["try self.willSave(to: &context)", "context._upsert(self, options: options)"] + saves
                + ["try self.didSave(to: &context)"]
        )
    }

    /// A function declaration with one statement per line (an empty body for no statements).
    static func function(_ signature: String, _ statements: [String]) -> String {
        guard !statements.isEmpty else { return "\(signature) {}" }
        return "\(signature) {\n" + statements.map { "    \($0)" }.joined(separator: "\n") + "\n}"
    }

    /// `public ` / `package ` when the struct is, so the conformance can be used where the type can.
    static func accessLevel(of structDecl: StructDeclSyntax) -> String {
        for modifier in structDecl.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }
}
