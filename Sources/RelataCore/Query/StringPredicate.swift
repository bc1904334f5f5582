import Foundation

/// A text test of one or more `String` properties: `.string(\.text, contains: "hello")`, as in
/// SwiftletModel. Matching is case-insensitive unless `caseSensitive` is `true`; with several key
/// paths, an entity is included when any of them matches (for the negative forms, when none does).
public struct StringPredicate<Entity> {
    let keyPaths: [KeyPath<Entity, String>]
    let method: Method
    let value: String

    enum Method {
        case contains(caseSensitive: Bool)
        case hasPrefix(caseSensitive: Bool)
        case hasSuffix(caseSensitive: Bool)
        case notHavingPrefix(caseSensitive: Bool)
        case notHavingSuffix(caseSensitive: Bool)
        case matches(tokens: [String])
        case regex(NSRegularExpression, NSRegularExpression.MatchingOptions)
        case notMatchingRegex(NSRegularExpression, NSRegularExpression.MatchingOptions)
    }

    /// Whether `entity` satisfies the test.
    public func isIncluded(_ entity: Entity) -> Bool {
        switch method {
        case .contains(let caseSensitive):
            return keyPaths.contains { Self.text(entity[keyPath: $0], caseSensitive).contains(Self.text(value, caseSensitive)) }
        case .hasPrefix(let caseSensitive):
            return keyPaths.contains { Self.text(entity[keyPath: $0], caseSensitive).hasPrefix(Self.text(value, caseSensitive)) }
        case .hasSuffix(let caseSensitive):
            return keyPaths.contains { Self.text(entity[keyPath: $0], caseSensitive).hasSuffix(Self.text(value, caseSensitive)) }
        case .notHavingPrefix(let caseSensitive):
            return !keyPaths.contains { Self.text(entity[keyPath: $0], caseSensitive).hasPrefix(Self.text(value, caseSensitive)) }
        case .notHavingSuffix(let caseSensitive):
            return !keyPaths.contains { Self.text(entity[keyPath: $0], caseSensitive).hasSuffix(Self.text(value, caseSensitive)) }
        case .matches(let tokens):
            return keyPaths.contains { SearchTokens.text(entity[keyPath: $0], matchesAnyOf: tokens) }
        case .regex(let expression, let options):
            return keyPaths.contains { Self.text(entity[keyPath: $0], matches: expression, options) }
        case .notMatchingRegex(let expression, let options):
            return !keyPaths.contains { Self.text(entity[keyPath: $0], matches: expression, options) }
        }
    }

    private static func text(_ text: String, matches expression: NSRegularExpression, _ options: NSRegularExpression.MatchingOptions) -> Bool {
        expression.firstMatch(in: text, options: options, range: NSRange(location: 0, length: text.utf16.count)) != nil
    }

    /// The text as compared: lowercased unless the comparison is case-sensitive (SwiftletModel's
    /// rule, `String.lowercased()`).
    private static func text(_ text: String, _ caseSensitive: Bool) -> String {
        caseSensitive ? text : text.lowercased()
    }
}

extension StringPredicate {
    /// The entities where any of `keyPaths` contains `value`.
    public static func string(_ keyPaths: KeyPath<Entity, String>..., contains value: String, caseSensitive: Bool = false) -> StringPredicate {
        StringPredicate(keyPaths: keyPaths, method: .contains(caseSensitive: caseSensitive), value: value)
    }

    /// The entities where any of `keyPaths` starts with `value`.
    public static func string(_ keyPaths: KeyPath<Entity, String>..., hasPrefix value: String, caseSensitive: Bool = false) -> StringPredicate {
        StringPredicate(keyPaths: keyPaths, method: .hasPrefix(caseSensitive: caseSensitive), value: value)
    }

    /// The entities where any of `keyPaths` ends with `value`.
    public static func string(_ keyPaths: KeyPath<Entity, String>..., hasSuffix value: String, caseSensitive: Bool = false) -> StringPredicate {
        StringPredicate(keyPaths: keyPaths, method: .hasSuffix(caseSensitive: caseSensitive), value: value)
    }

    /// The entities where any of `keyPaths` fuzzily matches `value`, as SwiftletModel matches:
    /// the property contains any three-character run (trigram) of a word of the lowercased
    /// `value` (`"Hello"` matches `"yellow"`: both have `ell`). A `value` without a word of three
    /// characters matches nothing.
    public static func string(_ keyPaths: KeyPath<Entity, String>..., matches value: String) -> StringPredicate {
        StringPredicate(keyPaths: keyPaths, method: .matches(tokens: SearchTokens.trigrams(of: value)), value: value)
    }

    /// The entities where none of `keyPaths` starts with `value`.
    public static func string(_ keyPaths: KeyPath<Entity, String>..., notHavingPrefix value: String, caseSensitive: Bool = false) -> StringPredicate {
        StringPredicate(keyPaths: keyPaths, method: .notHavingPrefix(caseSensitive: caseSensitive), value: value)
    }

    /// The entities where none of `keyPaths` ends with `value`.
    public static func string(_ keyPaths: KeyPath<Entity, String>..., notHavingSuffix value: String, caseSensitive: Bool = false) -> StringPredicate {
        StringPredicate(keyPaths: keyPaths, method: .notHavingSuffix(caseSensitive: caseSensitive), value: value)
    }

    /// The entities where `regex` finds a match in any of `keyPaths` (runs in Swift, after
    /// storage's part of the query).
    public static func string(
        _ keyPaths: KeyPath<Entity, String>..., matches regex: NSRegularExpression, options: NSRegularExpression.MatchingOptions = []
    ) -> StringPredicate {
        StringPredicate(keyPaths: keyPaths, method: .regex(regex, options), value: "")
    }

    /// The entities where `regex` finds no match in any of `keyPaths`.
    public static func string(
        _ keyPaths: KeyPath<Entity, String>..., notMatching regex: NSRegularExpression, options: NSRegularExpression.MatchingOptions = []
    ) -> StringPredicate {
        StringPredicate(keyPaths: keyPaths, method: .notMatchingRegex(regex, options), value: "")
    }
}

extension StringPredicate where Entity: EntityModelProtocol {
    /// The test storage can run for this predicate, if it can (see ``ColumnFilter``): a
    /// case-sensitive test of one property (SQL compares bytes; Swift's case-insensitive tests
    /// fold all of Unicode, and several properties are any-of).
    func columnFilter(of _: Entity.Type) -> ColumnFilter? {
        guard keyPaths.count == 1, !value.isEmpty, let column = Entity.columnName(of: keyPaths[0]) else { return nil }
        switch method {
        case .contains(true): return ColumnFilter(column: column, test: .contains, value: .text(value))
        case .hasPrefix(true): return ColumnFilter(column: column, test: .hasPrefix, value: .text(value))
        case .hasSuffix(true): return ColumnFilter(column: column, test: .hasSuffix, value: .text(value))
        default: return nil
        }
    }

    /// Where a full-text index in memory lets this test start (see ``FullTextMemoryIndex``): a
    /// `contains`, `hasPrefix` or `hasSuffix` test of properties a ``FullTextIndex`` covers, with
    /// an ASCII value holding a trigram. Every text passing the test holds each trigram of the
    /// value in its lowercased words, whatever the case: an ASCII letter has one lowercase form,
    /// and the index lowercases the text as the value. A value that is not ASCII is not looked
    /// up (Unicode's case mapping can depend on the letters around, as Greek's final sigma does).
    var textLookup: IndexLookup<Entity>? {
        switch method {
        case .contains, .hasPrefix, .hasSuffix: break
        default: return nil
        }
        guard !keyPaths.isEmpty, value.utf8.allSatisfy({ $0 < 0x80 }),
            Entity._relataIndexes.contains(where: { $0.kind == .fullText && Set(keyPaths).isSubset(of: $0.textKeyPaths) })
        else { return nil }
        var trigrams: [Trigram] = []
        Trigram.forEach(in: value) { trigram in
            if !trigrams.contains(trigram) { trigrams.append(trigram) }
        }
        guard !trigrams.isEmpty else { return nil }
        let lookup = FullTextMemoryIndex<Entity>.Lookup(keyPaths: keyPaths, trigrams: trigrams)
        return IndexLookup(keyPath: keyPaths[0], test: .contains, value: lookup, isExact: false)
    }
}
