/// The places of a search's trigrams among the words a table of trigrams stores
/// (``FullTextCandidates/term(_:)``), and how often a stored row's words hold each: what a search
/// in storage counts for every candidate row, read from the row's bytes without a `String` per
/// word (a three-letter word is packed in a `UInt32`, as ``Trigram`` packs one).
package struct FullTextTermPlaces: Sendable {
    /// The three-byte terms, packed, beside their places (a search has a few dozen trigrams: a
    /// scan of an array beats a hash; above `hashedAbove` they are hashed).
    private var packed: [UInt32] = [], packedPlaces: [Int] = []
    private var hashed: [UInt32: Int] = [:]
    /// The longer terms (a trigram with a letter outside ASCII, as hexadecimal) by their bytes.
    private var longer: [[UInt8]: Int] = [:]
    private static let hashedAbove = 24

    /// The places of `terms` (each a ``FullTextCandidates/term(_:)``, distinct), in order.
    package init(terms: [String]) {
        for (place, term) in terms.enumerated() {
            if let key = SearchTokens.asciiKey(term) {
                packed.append(key)
                packedPlaces.append(place)
            } else {
                longer[Array(term.utf8)] = place
            }
        }
        if packed.count > Self.hashedAbove {
            for (key, place) in zip(packed, packedPlaces) { hashed[key] = place }
        }
    }

    /// The place of the term whose bytes are `word`, if it is one of the search's.
    package func place(of word: some Collection<UInt8>) -> Int? {
        guard word.count == 3 else { return longer.isEmpty ? nil : longer[Array(word)] }
        var bytes = word.makeIterator()
        return place(packed: Self.pack(bytes.next()!, bytes.next()!, bytes.next()!))
    }

    /// How often `stored` (words separated by single spaces, as ``FullTextCandidates/terms(of:)``
    /// writes them) holds each of the terms, by place; the terms it does not hold are absent.
    package func frequencies(in stored: String) -> [Int: Int] {
        var frequencies: [Int: Int] = [:]
        var stored = stored
        stored.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 0x20 { end += 1 }
                let found: Int? =
                    end - start == 3
                    ? place(packed: Self.pack(bytes[start], bytes[start + 1], bytes[start + 2]))
                    : longer.isEmpty ? nil : longer[Array(bytes[start..<end])]
                if let found { frequencies[found, default: 0] += 1 }
                start = end + 1
            }
        }
        return frequencies
    }

    private func place(packed key: UInt32) -> Int? {
        if packed.count > Self.hashedAbove { return hashed[key] }
        return packed.firstIndex(of: key).map { packedPlaces[$0] }
    }

    private static func pack(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 {
        UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
    }
}
