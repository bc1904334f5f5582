import RelataMacroExpansion
import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

@main
struct RelataMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [EntityModelMacro.self]
}

/// `@EntityModel` as the compiler looks it up (`RelataMacros.EntityModelMacro`); the expansion
/// is `RelataMacroExpansion`'s, a library the macro tests link instead of this target.
public struct EntityModelMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try RelataMacroExpansion.EntityModelMacro.expansion(
            of: node, providingMembersOf: declaration, conformingTo: protocols, in: context
        )
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try RelataMacroExpansion.EntityModelMacro.expansion(
            of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context
        )
    }
}
