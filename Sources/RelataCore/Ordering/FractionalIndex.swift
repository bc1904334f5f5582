/// The fractional-indexing algorithms behind ``PositionKey``, over ASCII bytes.
///
/// After David Greenspan's "Implementing Fractional Indexing" (variable-length integer part so
/// appends stay short), with random choices inside the open interval and one random jitter digit
/// so that concurrent inserts at the same place rarely collide.
@usableFromInline
enum FractionalIndex {
    static let base = 62
    static let zeroDigit = UInt8(ascii: "0")

    /// The value of a digit character (`0-9A-Za-z` → 0…61), or `nil`.
    @inline(__always)
    static func value(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(c - UInt8(ascii: "A")) + 10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(c - UInt8(ascii: "a")) + 36
        default: nil
        }
    }

    /// The character of a digit value (0…61).
    @inline(__always)
    static func character(_ value: Int) -> UInt8 {
        switch value {
        case 0..<10: UInt8(ascii: "0") + UInt8(value)
        case 10..<36: UInt8(ascii: "A") + UInt8(value - 10)
        default: UInt8(ascii: "a") + UInt8(value - 36)
        }
    }

    /// The length of the integer part that starts with `head` (head included), or `nil`.
    static func integerLength(head: UInt8) -> Int? {
        switch head {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(head - UInt8(ascii: "a")) + 2
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(UInt8(ascii: "Z") - head) + 2
        default: nil
        }
    }

    /// The integer part of the key zero.
    static let zero: [UInt8] = Array("a0".utf8)
    /// The smallest integer part; a key must have a fraction after it.
    static let smallestInteger: [UInt8] = [UInt8(ascii: "A")] + Array(repeating: zeroDigit, count: 26)

    /// Whether `bytes` is a valid key: a well-formed integer part, digits only, a fraction that
    /// does not end in `0`, and not the smallest integer alone.
    static func isValid(_ bytes: [UInt8]) -> Bool {
        guard let head = bytes.first, let length = integerLength(head: head), bytes.count >= length else {
            return false
        }
        guard bytes.dropFirst().allSatisfy({ value($0) != nil }) else { return false }
        if bytes.count > length, bytes.last == zeroDigit { return false }
        return bytes != smallestInteger
    }

    static func split(_ key: [UInt8]) -> (integer: [UInt8], fraction: ArraySlice<UInt8>) {
        let length = integerLength(head: key[0])!
        return (Array(key[..<length]), key[length...])
    }

    /// The next integer part, or `nil` past the largest (`z` followed by 26 `z`s).
    static func increment(_ integer: [UInt8]) -> [UInt8]? {
        var digits = Array(integer.dropFirst())
        let head = integer[0]
        var index = digits.count - 1
        while index >= 0 {
            let next = value(digits[index])! + 1
            if next < base {
                digits[index] = character(next)
                return [head] + digits
            }
            digits[index] = zeroDigit
            index -= 1
        }
        // Every digit carried: the integer part grows (or, from negative, shrinks) by one digit.
        if head == UInt8(ascii: "Z") { return zero }
        if head == UInt8(ascii: "z") { return nil }
        let newHead = head + 1
        if newHead > UInt8(ascii: "a") { digits.append(zeroDigit) } else { digits.removeLast() }
        return [newHead] + digits
    }

    /// The previous integer part, or `nil` before the smallest.
    static func decrement(_ integer: [UInt8]) -> [UInt8]? {
        var digits = Array(integer.dropFirst())
        let head = integer[0]
        let largest = character(base - 1)
        var index = digits.count - 1
        while index >= 0 {
            let previous = value(digits[index])! - 1
            if previous >= 0 {
                digits[index] = character(previous)
                return [head] + digits
            }
            digits[index] = largest
            index -= 1
        }
        if head == UInt8(ascii: "a") { return [UInt8(ascii: "Z"), largest] }
        if head == UInt8(ascii: "A") { return nil }
        let newHead = head - 1
        if newHead < UInt8(ascii: "Z") { digits.append(largest) } else { digits.removeLast() }
        return [newHead] + digits
    }

    /// One random non-zero digit, appended after a chosen key so that two replicas choosing at
    /// the same place rarely agree. A fraction never ends in `0`, so the result stays valid.
    static func jitter(using generator: inout some RandomNumberGenerator) -> UInt8 {
        character(Int.random(in: 1..<base, using: &generator))
    }

    /// A fraction strictly between the fractions `a` and `b` (`nil`: 1), never a prefix of `b`,
    /// never ending in `0`.
    static func midpoint(
        _ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>?, using generator: inout some RandomNumberGenerator
    ) -> [UInt8] {
        var result: [UInt8] = []
        var upper = b
        var index = 0
        var aIndex = a.startIndex
        while true {
            let low = aIndex < a.endIndex ? value(a[aIndex])! : 0
            let high: Int
            if let bytes = upper {
                let position = bytes.startIndex + index
                high = position < bytes.endIndex ? value(bytes[position])! : 0
            } else {
                high = base
            }
            if low == high {
                result.append(character(low))
            } else if high - low > 1 {
                // Pick inside the middle half of the open interval (short keys, some jitter).
                let width = high - low - 1
                let start = low + 1 + width / 4
                let end = high - 1 - width / 4
                result.append(character(Int.random(in: start...end, using: &generator)))
                result.append(jitter(using: &generator))
                return result
            } else {
                // Consecutive digits: keep `a`'s digit, and go above the rest of `a`.
                result.append(character(low))
                upper = nil
            }
            index += 1
            if aIndex < a.endIndex { aIndex += 1 }
        }
    }

    /// A key strictly between `a` and `b` (`nil`: the start or the end of the list).
    static func between(
        _ a: [UInt8]?, _ b: [UInt8]?, using generator: inout some RandomNumberGenerator
    ) -> [UInt8] {
        switch (a, b) {
        case (nil, nil):
            return zero + [jitter(using: &generator)]
        case (let a?, nil):
            let (integer, fraction) = split(a)
            if let next = increment(integer) { return next + [jitter(using: &generator)] }
            return integer + midpoint(fraction, nil, using: &generator)
        case (nil, let b?):
            let (integer, fraction) = split(b)
            if integer == smallestInteger { return integer + midpoint([], fraction, using: &generator) }
            return decrement(integer)! + [jitter(using: &generator)]
        case (let a?, let b?):
            precondition(a.lexicographicallyPrecedes(b), "position keys out of order")
            let (aInteger, aFraction) = split(a)
            let (bInteger, bFraction) = split(b)
            if aInteger == bInteger {
                return aInteger + midpoint(aFraction, bFraction, using: &generator)
            }
            // Distinct integer parts are never prefixes of one another (the head gives the length).
            if let next = increment(aInteger), next.lexicographicallyPrecedes(bInteger) {
                return next + [jitter(using: &generator)]
            }
            return aInteger + midpoint(aFraction, nil, using: &generator)
        }
    }
}
