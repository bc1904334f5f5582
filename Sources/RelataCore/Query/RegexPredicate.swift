/// A test of one or more `String` properties by a Swift `Regex` (SwiftletModel's
/// `RegexPredicate`): `.string(\.email, matches: try Regex(".*@example\\.com"))`. With several
/// key paths, an entity is included when the regex matches any of them (for `notMatching`, when it
/// matches none). It runs in Swift, after storage's part of the query.
public struct RegexPredicate<Entity> {
    let keyPaths: [KeyPath<Entity, String>]
    let regex: Regex<AnyRegexOutput>
    let isNegated: Bool

    /// Whether `entity` satisfies the test.
    public func isIncluded(_ entity: Entity) -> Bool {
        keyPaths.contains { entity[keyPath: $0].firstMatch(of: regex) != nil } != isNegated
    }

    /// The entities where `regex` finds a match in any of `keyPaths`.
    public static func string(_ keyPaths: KeyPath<Entity, String>..., matches regex: Regex<AnyRegexOutput>) -> RegexPredicate {
        RegexPredicate(keyPaths: keyPaths, regex: regex, isNegated: false)
    }

    /// The entities where `regex` finds no match in any of `keyPaths`.
    public static func string(_ keyPaths: KeyPath<Entity, String>..., notMatching regex: Regex<AnyRegexOutput>) -> RegexPredicate {
        RegexPredicate(keyPaths: keyPaths, regex: regex, isNegated: true)
    }
}

extension QueryList {
    /// Keeps the entities that satisfy `predicate` (`.string(\.text, matches: regex)`).
    public func filter(_ predicate: RegexPredicate<Entity>) -> QueryList {
        filter { predicate.isIncluded($0) }
    }

    /// Keeps, of the entities kept so far, those that also satisfy `predicate`.
    public func and(_ predicate: RegexPredicate<Entity>) -> QueryList {
        filter(predicate)
    }

    /// A deferred query for the entities of the type that satisfy `predicate`.
    public static func filter(_ predicate: RegexPredicate<Entity>) -> QueryList {
        Entity.query().filter(predicate)
    }
}

extension EntityModelProtocol {
    /// A deferred query for the entities that satisfy `predicate`.
    public static func filter(_ predicate: RegexPredicate<Self>) -> QueryList<Self> {
        query().filter(predicate)
    }
}
