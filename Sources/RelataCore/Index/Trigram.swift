/// One trigram of ``SearchTokens`` as the in-memory full-text index keys it: three ASCII
/// letters or digits packed in an integer (most text: no string is made), any other as its text.
/// The same trigram always has the same key, whichever path found it.
@usableFromInline
enum Trigram: Hashable, Sendable {
    case ascii(UInt32)
    case text(String)

    init(_ token: String) {
        self = SearchTokens.asciiKey(token).map(Trigram.ascii) ?? .text(token)
    }

    /// Calls `body` with each trigram of `text`, in order, repeats included (those of
    /// ``SearchTokens/trigrams(of:)``).
    @inline(__always)
    static func forEach(in text: String, _ body: (Trigram) -> Void) {
        if SearchTokens.forEachASCIITrigram(of: text, { body(.ascii($0)) }) { return }
        for token in SearchTokens.trigrams(of: text) { body(Trigram(token)) }
    }
}
