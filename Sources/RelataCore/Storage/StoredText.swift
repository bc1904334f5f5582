import Foundation

/// Text compared and hashed as storage compares it: by its UTF-8 bytes.
///
/// Swift's `String` compares by canonical equivalence — `"é"` written as one scalar (NFC) equals
/// `"e"` followed by a combining accent (NFD) — while SQLite and PostgreSQL (with the `"C"`
/// collation Relata's tables use) compare bytes: the two are two rows. The keys of stored rows
/// (``EntityKey``, ``LinkSourceKey``, ``LinkTargetKey``, ``LinkKey``) compare their ids this way,
/// so that a store's cache holds one entry per stored row, never one for two.
enum StoredText {
    /// Whether `a` and `b` are the same bytes.
    static func equal(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) }
        }
    }

    /// Feeds the bytes of `text` to `hasher`.
    static func hash(_ text: String, into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
