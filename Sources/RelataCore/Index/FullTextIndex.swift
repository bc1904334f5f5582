/// Declares a full-text index on `String` properties, as SwiftletModel declares it:
///
/// ```swift
/// @EntityModel
/// struct Article {
///     @FullTextIndex<Self>(\.title, \.content) private var contentIndex
///     let id: String
///     var title: String
///     var content: String
/// }
///
/// let best = Article.query(in: context)
///     .filter(.string(\.title, \.content, matches: "search terms"))
///     .limit(20)
///     .resolve()
/// ```
///
/// With the index declared, a `matches` filter on the same key paths (in the same order) ranks
/// what it keeps by relevance — SwiftletModel's BM25 over the character trigrams of each word
/// (see ``StringPredicate``) — best first, ties by id; a later `sorted(by:)` orders by its keys
/// instead. Matching follows the index: the text is lowercased before its trigrams are compared.
///
/// In a ``Store`` the index is a table of the trigrams — on SQLite an FTS5 table, on PostgreSQL a
/// `tsvector` of them under a GIN index — made (and filled from the stored rows) by the first
/// write of the type that declares it, and kept by every write after: a search reads the
/// matching rows' statistics there and only the best entities. In memory the same ranking is
/// computed over the type's entities.
@propertyWrapper
public struct FullTextIndex<Entity: EntityModelProtocol>: _IndexMarker {
    /// Nothing: the declaration is read by `@EntityModel`.
    public var wrappedValue: Never.Type? { nil }

    public init(wrappedValue: Never.Type?) {}

    /// An index of the text of `keyPaths`.
    public init(_ keyPaths: KeyPath<Entity, String>...) {}
}
