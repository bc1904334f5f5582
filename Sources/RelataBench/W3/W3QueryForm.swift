import Foundation
import Relata

/// A way to write W3's queries: with predicates (``W3Queries``) or with closures, as before
/// Relata had predicates (``W3ClosureQueries``).
protocol W3QueryForm: SendableMetatype {
    static func user(email: String, in context: Context) -> String?
    static func newest(after date: Date, in context: Context) -> [String]
    static func unread(in context: Context) -> Int
    static func agedPage(in context: Context) -> [String]
    static func search(_ words: String, in context: Context) -> [String]
    static func scan(_ text: String, in context: Context) -> [String]
    static func newestNested(after date: Date, in context: Context) -> [W3Message]
}
