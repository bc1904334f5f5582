/// The kinds of index an entity declares.
public enum IndexKind: String, Sendable, Hashable {
    /// ``Index``: sorted, for ranges and sorts.
    case sorted
    /// ``HashIndex``: for equality.
    case hashed
    /// ``FullTextIndex``: text search, ranked.
    case fullText = "full-text"
}
