extension PositionKey {
    /// The byte at `index` (0 when past the end), for keys without a tail.
    @inline(__always)
    func inlineByte(_ index: Int) -> UInt8 {
        let word = index < 8 ? high : low
        return UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * (index & 7)))
    }

    @inline(__always)
    mutating func setInlineByte(_ index: Int, _ byte: UInt8) {
        let shift = UInt64(56 - 8 * (index & 7))
        if index < 8 {
            high = high & ~(0xFF << shift) | UInt64(byte) << shift
        } else {
            low = low & ~(0xFF << shift) | UInt64(byte) << shift
        }
    }

    /// The next integer part after this key's, followed by `jitter`: what appending after this
    /// key produces, computed on the packed words without allocating. `nil` when the key is long
    /// or every digit carries (the general path handles those).
    @usableFromInline
    func appendedInline(jitter: UInt8) -> PositionKey? {
        guard tail.isEmpty, let length = FractionalIndex.integerLength(head: inlineByte(0)), length < 16 else {
            return nil
        }
        var result = self
        // Clear the fraction: bytes from `length` on.
        for index in length..<16 { result.setInlineByte(index, 0) }
        var index = length - 1
        while index >= 1 {
            let digit = inlineByte(index)
            switch digit {
            case UInt8(ascii: "z"):
                result.setInlineByte(index, UInt8(ascii: "0"))
                index -= 1
                continue
            case UInt8(ascii: "9"): result.setInlineByte(index, UInt8(ascii: "A"))
            case UInt8(ascii: "Z"): result.setInlineByte(index, UInt8(ascii: "a"))
            default: result.setInlineByte(index, digit + 1)
            }
            result.setInlineByte(length, jitter)
            return result
        }
        return nil
    }
}
