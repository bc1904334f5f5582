extension SearchTokens {
    /// Calls `body` with each trigram of `text` packed in a `UInt32` (three lowercase ASCII
    /// letters or digits, see ``asciiKey(_:)``), in order, repeats included — the trigrams
    /// ``trigrams(of:)`` gives, without making a string of each — when `text` is ASCII; returns
    /// `false` without calling it otherwise (Unicode's letters and case mapping need the general
    /// path).
    @inline(__always)
    package static func forEachASCIITrigram(of text: String, _ body: (UInt32) -> Void) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes where byte >= 0x80 { return false }
            var run = 0
            var key: UInt32 = 0
            for byte in bytes {
                let lower = byte &- 0x41 < 26 ? byte | 0x20 : byte
                guard lower &- 0x61 < 26 || lower &- 0x30 < 10 else {
                    run = 0
                    continue
                }
                key = (key << 8 | UInt32(lower)) & 0xFF_FFFF
                run += 1
                if run >= 3 { body(key) }
            }
            return true
        }
    }

    /// The key ``forEachASCIITrigram(of:_:)`` packs `token` in, if it is three ASCII bytes.
    package static func asciiKey(_ token: String) -> UInt32? {
        let bytes = Array(token.utf8)
        guard bytes.count == 3, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return UInt32(bytes[0]) << 16 | UInt32(bytes[1]) << 8 | UInt32(bytes[2])
    }
}
