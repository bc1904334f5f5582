import SwiftSyntax
import SwiftSyntaxBuilder

/// The per-type column code `@EntityModel` generates: `_relataWriteColumns(_:to:)` and
/// `init(_relataColumns:)`, which store and read every stored property (relations excluded) as
/// a typed column, without `Codable`, and `_relataColumnName(_:)`, the column a key path names
/// (`\.age`, or `\.age.desc` in a sort: what lets a query's predicate or sort run in SQL).
///
/// A struct that codes itself (its own `CodingKeys`, `init(from:)` or `encode(to:)`) or whose
/// properties the macro cannot read one by one (another property wrapper, `lazy`, a tuple
/// pattern) gets no column code: the store then writes it whole through `Codable`.
enum ColumnCodingDecls {
    /// The three declarations, or none when the struct's columns are not generated.
    static func decls(for structDecl: StructDeclSyntax, properties: [StoredProperty], access: DeclModifierListSyntax) -> [DeclSyntax] {
        guard generatesColumns(structDecl) else { return [] }
        let columns = properties.filter { $0.relation == nil && !($0.isLet && $0.initializer != nil) }
        var writes: [CodeBlockItemSyntax] = []
        var reads: [CodeBlockItemSyntax] = []
        var names: [CodeBlockItemSyntax] = []
        for (ordinal, property) in columns.enumerated() {
            let name = property.name
            let column = StringLiteralExprSyntax(content: name.text)
            let index = IntegerLiteralExprSyntax(ordinal)
            names.append("if Relata._relataNames(keyPath, \\Self.\(name)) { return \(column) }")
            if property.isOptional {
                writes.append("try writer.writeOptional(entity.\(name), \(column), \(index))")
                reads.append("self.\(name) = try reader.readOptional(\\Self.\(name), \(column), \(index))")
            } else if let initializer = property.initializer {
                writes.append("try writer.write(entity.\(name), \(column), \(index))")
                reads.append("self.\(name) = try reader.read(\\Self.\(name), \(column), \(index), default: \(initializer))")
            } else {
                writes.append("try writer.write(entity.\(name), \(column), \(index))")
                reads.append("self.\(name) = try reader.read(\\Self.\(name), \(column), \(index))")
            }
        }
        for relation in properties.compactMap(\.relation) {
            reads.append("self.\(relation.storage) = Relata.Relationship(relation: .none)")
        }
        return [
            EntityModelMacro.function(
                "\(access)static func _relataWriteColumns(_ entity: Self, to writer: inout Relata._SplitColumnWriter) throws", writes
            ),
            EntityModelMacro.function("\(access)init(_relataColumns reader: inout Relata._SplitColumnReader) throws", reads),
            EntityModelMacro.function(
                "\(access)static func _relataColumnName(_ keyPath: PartialKeyPath<Self>) -> String?", names + ["return nil"]
            ),
        ]
    }

    /// Whether the struct's properties can be stored column by column.
    static func generatesColumns(_ structDecl: StructDeclSyntax) -> Bool {
        for member in structDecl.memberBlock.members {
            let decl = member.decl
            if let variable = decl.as(VariableDeclSyntax.self) {
                if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) { continue }
                if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) { return false }
                let wrappers = variable.attributes.compactMap { $0.as(AttributeSyntax.self) }.filter { !$0.isRelationship && IndexProperty($0) == nil }
                if !wrappers.isEmpty { return false }
                if variable.bindings.contains(where: { !$0.pattern.is(IdentifierPatternSyntax.self) }) { return false }
            } else if let function = decl.as(FunctionDeclSyntax.self) {
                if function.name.text == "encode", function.signature.parameterClause.parameters.first?.firstName.text == "to" { return false }
            } else if let initializer = decl.as(InitializerDeclSyntax.self) {
                if initializer.signature.parameterClause.parameters.first?.firstName.text == "from" { return false }
            } else if let name = codingKeysName(decl), name == "CodingKeys" {
                return false
            }
        }
        return true
    }

    private static func codingKeysName(_ decl: DeclSyntax) -> String? {
        if let e = decl.as(EnumDeclSyntax.self) { return e.name.text }
        if let s = decl.as(StructDeclSyntax.self) { return s.name.text }
        if let t = decl.as(TypeAliasDeclSyntax.self) { return t.name.text }
        return nil
    }
}
