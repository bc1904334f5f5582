import SwiftDiagnostics
import SwiftSyntax

/// Misuses of `@EntityModel` and `@Relationship`, each with a stable id.
enum EntityModelDiagnostic: String, DiagnosticMessage {
    case notAStruct
    case missingID
    case relationNotVar
    case relationType
    case bareRelationship
    case inverseNotKeyPath
    case unknownOption
    case uniqueNotLiteral

    var message: String {
        switch self {
        case .notAStruct: "@EntityModel can only be applied to a struct"
        case .missingID: "@EntityModel requires a property 'id' (stored or computed)"
        case .relationNotVar: "@Relationship must be applied to a 'var'"
        case .relationType: "@Relationship property must have type 'Entity?' (to-one) or '[Entity]?' (to-many)"
        case .bareRelationship:
            "@Relationship without arguments needs an initial value '= nil' so Swift can infer the relation type"
        case .inverseNotKeyPath: "'inverse:' must be a key path literal such as \\.messages"
        case .unknownOption: "the unlabeled @Relationship argument must be '.required'"
        case .uniqueNotLiteral: "'unique:' must be the literal 'true' or 'false' (@EntityModel reads it at compile time)"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "RelataMacros", id: rawValue) }
    var severity: DiagnosticSeverity { .error }
}

struct AddNilFixIt: FixItMessage {
    var message: String { "add '= nil'" }
    var fixItID: MessageID { MessageID(domain: "RelataMacros", id: "addNil") }
}

struct DiagnosticsError: Error {
    let diagnostics: [Diagnostic]
}
