import Foundation

/// The binary form of stored entity payloads: self-describing and keyed like JSON (so adding an
/// optional property or a relation to a model needs no migration), but several times cheaper to
/// write and read.
///
/// A payload is the two bytes `00 01` (no JSON text starts with `00`, so payloads written as JSON
/// by older versions are still told apart) followed by one value. A value is a tag byte and:
///
/// | tag | value |
/// | --- | --- |
/// | `nil`, `false`, `true` | nothing |
/// | `int` | a zigzag varint (a signed integer) |
/// | `uint` | a varint (an unsigned integer above `Int64.max`) |
/// | `double` | 8 bytes, the IEEE 754 bit pattern, little-endian (`Float` too) |
/// | `string` | a varint byte count, then UTF-8 |
/// | `data` | a varint byte count, then the bytes (`Data`) |
/// | `keyed` | a varint entry count, a varint byte count, then per entry a key (varint byte count, UTF-8) and a value |
/// | `unkeyed` | a varint element count, a varint byte count, then the values |
@usableFromInline
enum PayloadFormat {
    static let magic: [UInt8] = [0x00, 0x01]

    enum Tag: UInt8 {
        case null = 0, `false`, `true`, int, uint, double, string, data, keyed, unkeyed
    }

    /// Whether `payload` is in this format (and not JSON).
    @inlinable
    static func isBinary(_ payload: Data) -> Bool {
        payload.first == 0x00
    }
}

// MARK: - Writing

extension Array where Element == UInt8 {
    @inlinable
    mutating func appendVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        append(UInt8(value))
    }

    @inline(__always)
    mutating func appendTag(_ tag: PayloadFormat.Tag) {
        append(tag.rawValue)
    }

    @inlinable
    mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            appendVarint(UInt64(utf8.count))
            append(contentsOf: utf8)
        }
    }

    mutating func appendInteger<T: BinaryInteger>(_ value: T) {
        if let signed = Int64(exactly: value) {
            appendTag(.int)
            appendVarint(UInt64(bitPattern: (signed << 1) ^ (signed >> 63)))
        } else {
            appendTag(.uint)
            appendVarint(UInt64(value))  // only unsigned values above Int64.max get here
        }
    }

    /// Appends a scalar value (tag and bytes).
    mutating func appendScalar(_ value: StoredValue) {
        switch value {
        case .bool(let value): appendTag(value ? .true : .false)
        case .int(let value): appendInteger(value)
        case .uint(let value): appendInteger(value)
        case .double(let value): appendDouble(value)
        case .text(let text):
            appendTag(.string)
            appendText(text)
        case .data(let data):
            appendTag(.data)
            appendVarint(UInt64(data.count))
            append(contentsOf: data)
        }
    }

    mutating func appendDouble(_ value: Double) {
        appendTag(.double)
        var bits = value.bitPattern.littleEndian
        Swift.withUnsafeBytes(of: &bits) { append(contentsOf: $0) }
    }
}

// MARK: - Reading

/// A cursor over payload bytes. Every read is bounds-checked: a truncated or damaged payload
/// throws, it never reads outside the buffer.
struct PayloadReader {
    let bytes: UnsafeRawBufferPointer

    func byte(at offset: Int) throws -> UInt8 {
        guard offset >= 0, offset < bytes.count else { throw PayloadFormat.damaged("ends early") }
        return bytes[offset]
    }

    func tag(at offset: Int) throws -> PayloadFormat.Tag {
        // Offset -1 stands for a value that is not in the payload (a missing super decoder).
        if offset == -1 { return .null }
        guard let tag = PayloadFormat.Tag(rawValue: try byte(at: offset)) else {
            throw PayloadFormat.damaged("unknown tag \(bytes[offset]) at \(offset)")
        }
        return tag
    }

    /// The varint at `offset` and the offset after it.
    @inline(__always)
    func varint(at offset: Int) throws -> (value: UInt64, next: Int) {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var offset = offset
        while true {
            let byte = try byte(at: offset)
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return (value, offset) }
            shift += 7
            if shift > 63 { throw PayloadFormat.damaged("varint too long") }
        }
    }

    /// A length read at `offset` that fits in the buffer from the offset after it.
    func length(at offset: Int) throws -> (value: Int, next: Int) {
        let (value, next) = try varint(at: offset)
        guard value <= UInt64(bytes.count - next) else { throw PayloadFormat.damaged("length \(value) past the end") }
        return (Int(value), next)
    }

    /// The offset just after the value at `offset`.
    func skip(at offset: Int) throws -> Int {
        switch try tag(at: offset) {
        case .null, .false, .true: return offset + 1
        case .int, .uint: return try varint(at: offset + 1).next
        case .double:
            guard offset + 9 <= bytes.count else { throw PayloadFormat.damaged("ends early") }
            return offset + 9
        case .string, .data:
            let (count, next) = try length(at: offset + 1)
            return next + count
        case .keyed, .unkeyed:
            let (_, afterCount) = try varint(at: offset + 1)
            let (count, next) = try length(at: afterCount)
            return next + count
        }
    }

    /// The text (key or string value) whose length is at `offset`, and the offset after it.
    func textRange(at offset: Int) throws -> (range: Range<Int>, next: Int) {
        let (count, start) = try length(at: offset)
        return (start..<(start + count), start + count)
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The scalar value at `offset` as a column holds it; `nil` for `nil` and for nested values
    /// (keyed, unkeyed).
    func scalar(at offset: Int) throws -> StoredValue? {
        switch try tag(at: offset) {
        case .null, .keyed, .unkeyed: return nil
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .int:
            let raw = try varint(at: offset + 1).value
            return .int(Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
        case .uint: return .uint(try varint(at: offset + 1).value)
        case .double: return .double(try double(at: offset + 1))
        case .string: return .text(string(try textRange(at: offset + 1).range))
        case .data: return .data(Data(bytes[try textRange(at: offset + 1).range]))
        }
    }

    func double(at offset: Int) throws -> Double {
        guard offset + 8 <= bytes.count else { throw PayloadFormat.damaged("ends early") }
        var bits: UInt64 = 0
        withUnsafeMutableBytes(of: &bits) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 8)])) }
        return Double(bitPattern: UInt64(littleEndian: bits))
    }
}

extension PayloadFormat {
    /// The error for bytes that are not a well-formed payload.
    static func damaged(_ what: String) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "damaged binary payload: \(what)"))
    }
}
