/// What storage's full-text table of a type answers for a search (see ``FullTextIndex``): the
/// statistics BM25 ranks with, and the rows holding the trigrams asked for, with how often each
/// holds every trigram of the search. Entities are not read: only the best ones are, afterwards.
@usableFromInline
package struct FullTextCandidates: Sendable, Equatable {
    /// How many entities of the type the table indexes.
    package var documents: Int
    /// The number of trigrams of all of them together.
    package var totalLength: Int
    /// For each trigram of the search (distinct, in the order asked), how many entities hold it.
    package var documentFrequencies: [Int]
    /// The rows holding at least one of the trigrams asked for.
    package var rows: [Row]

    package init(documents: Int, totalLength: Int, documentFrequencies: [Int], rows: [Row]) {
        self.documents = documents
        self.totalLength = totalLength
        self.documentFrequencies = documentFrequencies
        self.rows = rows
    }

    /// One row that holds a trigram of the search.
    @usableFromInline
    package struct Row: Sendable, Equatable {
        /// The entity's id, as stored.
        package var id: String
        /// How many trigrams its text has.
        package var length: Int
        /// How often it holds each trigram of the search, by the trigram's place in the search's
        /// distinct trigrams.
        package var frequencies: [Int: Int]

        package init(id: String, length: Int, frequencies: [Int: Int]) {
            self.id = id
            self.length = length
            self.frequencies = frequencies
        }
    }

    /// How a table of trigrams writes `token` as an ASCII word (SQLite's FTS5 `ascii`
    /// tokenizer splits nothing else): a trigram of ASCII letters and digits as it is, any other
    /// as `x` and the hexadecimal of its UTF-8 bytes (longer than three characters, so the two
    /// never meet).
    package static func term(_ token: String) -> String {
        let bytes = Array(token.utf8)
        if bytes.count == 3, bytes.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }) { return token }
        return "x" + bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// The trigrams of `texts` as a table of trigrams stores them: words separated by spaces,
    /// and how many there are.
    package static func terms(of texts: [String]) -> (text: String, count: Int) {
        var bytes: [UInt8] = [], count = 0
        for text in texts {
            let ascii = SearchTokens.forEachASCIITrigram(of: text) { key in
                if count > 0 { bytes.append(0x20) }
                bytes.append(UInt8(key >> 16))
                bytes.append(UInt8(key >> 8 & 0xFF))
                bytes.append(UInt8(key & 0xFF))
                count += 1
            }
            if ascii { continue }
            for token in SearchTokens.trigrams(of: text) {
                if count > 0 { bytes.append(0x20) }
                bytes += term(token).utf8
                count += 1
            }
        }
        return (String(decoding: bytes, as: UTF8.self), count)
    }
}
