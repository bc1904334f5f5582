/// The kinds of index an entity declares.
public enum IndexKind: String, Sendable, Hashable {
    /// ``Index``: sorted, for ranges and sorts.
    case sorted
    /// ``HashIndex``: for equality.
    case hashed
    /// ``Unique``: for equality, one entity per value.
    case unique
    /// ``FullTextIndex``: text search, ranked.
    case fullText = "full-text"
}
