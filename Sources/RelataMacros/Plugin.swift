import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct RelataMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [EntityModelMacro.self]
}
