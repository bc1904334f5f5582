import SwiftSyntax
import SwiftSyntaxBuilder

/// The `Codable` conformance `@EntityModel` writes for a struct that does not declare `Codable`
/// (SwiftletModel's entities need not be): what Swift would synthesize — the same keys, `encode`
/// and `decode` calls, optional properties left out when `nil` — except that a property whose
/// type is not `Codable` fails at run time, with an error naming it, instead of at compile time.
/// Such an entity lives in memory (a `Context`); a store or a change set that codes it throws.
///
/// A struct that declares `Codable` (or `Encodable`/`Decodable`), codes itself (its own
/// `CodingKeys`, `init(from:)`, `encode(to:)`), or has a property the macro cannot code one by one
/// (another property wrapper, `lazy`, a tuple pattern) keeps what Swift synthesizes.
enum CodableDecls {
    static func decls(for structDecl: StructDeclSyntax, properties: [StoredProperty], access: DeclModifierListSyntax) -> [DeclSyntax] {
        guard !declaresCodable(structDecl), ColumnCodingDecls.generatesColumns(structDecl) else { return [] }
        guard !properties.isEmpty else { return [] }
        let cases = "case " + properties.map(\.name.text).joined(separator: ", ")
        var encodes: [CodeBlockItemSyntax] = []
        var decodes: [CodeBlockItemSyntax] = []
        for property in properties {
            let name = property.name
            if let relation = property.relation {
                // The relation overloads of `KeyedEncodingContainer` (see Relation+Codable.swift).
                encodes.append("try container.encode(self.\(relation.storage), forKey: .\(name))")
                decodes.append("self.\(relation.storage) = try container._relataDecodeRelationship(forKey: .\(name))")
            } else if property.isOptional {
                encodes.append("try container._relataEncodeIfPresent(self.\(name), forKey: .\(name))")
                decodes.append("self.\(name) = try container._relataDecodeIfPresent(forKey: .\(name))")
            } else {
                encodes.append("try container._relataEncode(self.\(name), forKey: .\(name))")
                // A `let` with an initial value cannot be assigned: Swift's decoding skips it too.
                if !(property.isLet && property.initializer != nil) {
                    decodes.append("self.\(name) = try container._relataDecode(forKey: .\(name))")
                }
            }
        }
        return [
            "\(access)enum _RelataCodingKeys: String, Swift.CodingKey { \(raw: cases) }",
            EntityModelMacro.function(
                "\(access)func encode(to encoder: any Swift.Encoder) throws",
                ["var container = encoder.container(keyedBy: _RelataCodingKeys.self)"] + encodes
            ),
            EntityModelMacro.function(
                "\(access)init(from decoder: any Swift.Decoder) throws",
                ["let container = try decoder.container(keyedBy: _RelataCodingKeys.self)"] + decodes
            ),
        ]
    }

    /// Whether the struct's declaration lists `Codable`, `Encodable` or `Decodable`.
    static func declaresCodable(_ structDecl: StructDeclSyntax) -> Bool {
        let names = ["Codable", "Encodable", "Decodable"]
        return structDecl.inheritanceClause?.inheritedTypes.contains { inherited in
            let text = inherited.type.trimmedDescription
            return names.contains { text == $0 || text.hasSuffix(".\($0)") || text.contains("\($0) &") || text.contains("& \($0)") }
        } ?? false
    }
}
