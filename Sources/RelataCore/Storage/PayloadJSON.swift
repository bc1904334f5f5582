import Foundation

/// Nested payload values as JSON text, for a JSON column (SQLite `TEXT`, PostgreSQL `jsonb`),
/// and back.
///
/// The text holds exactly what the payload held: a floating-point number is written so it reads
/// back as one (`1.0`, `1e+16`), integers in full. Values JSON cannot hold exactly are declined
/// (``text(of:at:)`` is `nil`, and the value stays in the row's payload): `Data`, `NaN` and
/// infinities, and text holding a NUL character (which PostgreSQL's `jsonb` refuses). A number
/// a database rewrites (`jsonb` prints `1e+16` as `10000000000000000`) reads back as an
/// integer, which decodes to the same `Double`.
package enum PayloadJSON {
    /// How deep reading nests before it calls the text damaged (a tampered column must not
    /// exhaust the stack).
    static let maxDepth = 256

    /// The JSON text of the payload value at `offset`, or `nil` when JSON cannot hold it exactly.
    static func text(of reader: PayloadReader, at offset: Int) throws -> String? {
        var out: [UInt8] = []
        guard try write(reader, at: offset, into: &out, depth: 0) else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    private static func write(_ reader: PayloadReader, at offset: Int, into out: inout [UInt8], depth: Int) throws -> Bool {
        guard depth < maxDepth else { return false }
        switch try reader.tag(at: offset) {
        case .null: out.append(contentsOf: Array("null".utf8))
        case .false: out.append(contentsOf: Array("false".utf8))
        case .true: out.append(contentsOf: Array("true".utf8))
        case .int:
            let raw = try reader.varint(at: offset + 1).value
            out.append(contentsOf: Array(String(Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))).utf8))
        case .uint: out.append(contentsOf: Array(String(try reader.varint(at: offset + 1).value).utf8))
        case .double:
            let value = try reader.double(at: offset + 1)
            guard value.isFinite else { return false }
            // Swift's description is the shortest text that reads back as the same Double, and
            // always has a `.` or an exponent.
            out.append(contentsOf: Array(value.description.utf8))
        case .string:
            guard writeString(reader.bytes, try reader.textRange(at: offset + 1).range, into: &out) else { return false }
        case .data: return false
        case .keyed:
            let (count, afterCount) = try reader.varint(at: offset + 1)
            var entry = try reader.length(at: afterCount).next
            out.append(UInt8(ascii: "{"))
            for index in 0..<count {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                let (key, value) = try reader.textRange(at: entry)
                guard writeString(reader.bytes, key, into: &out) else { return false }
                out.append(UInt8(ascii: ":"))
                guard try write(reader, at: value, into: &out, depth: depth + 1) else { return false }
                entry = try reader.skip(at: value)
            }
            out.append(UInt8(ascii: "}"))
        case .unkeyed:
            let (count, afterCount) = try reader.varint(at: offset + 1)
            var element = try reader.length(at: afterCount).next
            out.append(UInt8(ascii: "["))
            for index in 0..<count {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                guard try write(reader, at: element, into: &out, depth: depth + 1) else { return false }
                element = try reader.skip(at: element)
            }
            out.append(UInt8(ascii: "]"))
        }
        return true
    }

    /// Writes the UTF-8 text in `range` as a JSON string; `false` when it holds a NUL.
    private static func writeString(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, into out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "\""))
        for byte in bytes[range] {
            switch byte {
            case 0: return false
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0x01..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return true
    }

    // MARK: - Reading

    /// Appends the payload value of the JSON `text` to `bytes`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when `text` is not one JSON value.
    static func append(_ text: String, to bytes: inout [UInt8]) throws {
        var text = text
        try text.withUTF8 { utf8 in
            var parser = Parser(input: UnsafeRawBufferPointer(utf8))
            try parser.value(into: &bytes, depth: 0)
            parser.skipSpace()
            guard parser.offset == utf8.count else { throw parser.damaged("text after the value") }
        }
    }

    private struct Parser {
        let input: UnsafeRawBufferPointer
        var offset = 0

        func damaged(_ what: String) -> DecodingError {
            DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "damaged JSON column at byte \(offset): \(what)"))
        }

        mutating func skipSpace() {
            while offset < input.count, [0x20, 0x09, 0x0A, 0x0D].contains(input[offset]) { offset += 1 }
        }

        mutating func expect(_ word: String) throws {
            for byte in word.utf8 {
                guard offset < input.count, input[offset] == byte else { throw damaged("expected \(word)") }
                offset += 1
            }
        }

        mutating func value(into out: inout [UInt8], depth: Int) throws {
            guard depth < PayloadJSON.maxDepth else { throw damaged("nested too deep") }
            skipSpace()
            guard offset < input.count else { throw damaged("ends early") }
            switch input[offset] {
            case UInt8(ascii: "n"):
                try expect("null")
                out.appendTag(.null)
            case UInt8(ascii: "t"):
                try expect("true")
                out.appendTag(.true)
            case UInt8(ascii: "f"):
                try expect("false")
                out.appendTag(.false)
            case UInt8(ascii: "\""):
                out.appendTag(.string)
                let string = try self.string()
                out.appendVarint(UInt64(string.count))
                out.append(contentsOf: string)
            case UInt8(ascii: "["):
                try container(closing: "]", tag: .unkeyed, into: &out) { parser, body in try parser.value(into: &body, depth: depth + 1) }
            case UInt8(ascii: "{"):
                try container(closing: "}", tag: .keyed, into: &out) { parser, body in
                    parser.skipSpace()
                    guard parser.offset < parser.input.count, parser.input[parser.offset] == UInt8(ascii: "\"") else {
                        throw parser.damaged("expected a key")
                    }
                    let key = try parser.string()
                    body.appendVarint(UInt64(key.count))
                    body.append(contentsOf: key)
                    parser.skipSpace()
                    try parser.expect(":")
                    try parser.value(into: &body, depth: depth + 1)
                }
            default: try number(into: &out)
            }
        }

        /// An array or object (at its opening bracket): its elements, each read by `element`
        /// into the body, then the payload container of them.
        mutating func container(
            closing: Unicode.Scalar, tag: PayloadFormat.Tag, into out: inout [UInt8], element: (inout Parser, inout [UInt8]) throws -> Void
        ) throws {
            offset += 1
            var body: [UInt8] = [], count = 0
            skipSpace()
            if offset < input.count, input[offset] == UInt8(ascii: closing) {
                offset += 1
            } else {
                while true {
                    try element(&self, &body)
                    count += 1
                    skipSpace()
                    guard offset < input.count else { throw damaged("ends early") }
                    offset += 1
                    if input[offset - 1] == UInt8(ascii: closing) { break }
                    guard input[offset - 1] == UInt8(ascii: ",") else { throw damaged("expected , or \(closing)") }
                }
            }
            out.appendTag(tag)
            out.appendVarint(UInt64(count))
            out.appendVarint(UInt64(body.count))
            out.append(contentsOf: body)
        }

        /// A JSON string's UTF-8 bytes (at its opening quote).
        mutating func string() throws -> [UInt8] {
            offset += 1
            var bytes: [UInt8] = []
            while true {
                guard offset < input.count else { throw damaged("a string ends early") }
                let byte = input[offset]
                offset += 1
                switch byte {
                case UInt8(ascii: "\""): return bytes
                case UInt8(ascii: "\\"):
                    guard offset < input.count else { throw damaged("a string ends early") }
                    let escape = input[offset]
                    offset += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escape)
                    case UInt8(ascii: "b"): bytes.append(0x08)
                    case UInt8(ascii: "f"): bytes.append(0x0C)
                    case UInt8(ascii: "n"): bytes.append(0x0A)
                    case UInt8(ascii: "r"): bytes.append(0x0D)
                    case UInt8(ascii: "t"): bytes.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar) {
                            try expect("\\u")
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw damaged("a lone surrogate") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { throw damaged("a lone surrogate") }
                        bytes.append(contentsOf: Array(String(Character(unicode)).utf8))
                    default: throw damaged("an unknown escape")
                    }
                default: bytes.append(byte)
                }
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard offset + 4 <= input.count,
                let value = UInt32(String(decoding: UnsafeRawBufferPointer(rebasing: input[offset..<(offset + 4)]), as: UTF8.self), radix: 16)
            else { throw damaged("a bad \\u escape") }
            offset += 4
            return value
        }

        mutating func number(into out: inout [UInt8]) throws {
            let start = offset
            var isInteger = true
            while offset < input.count {
                let byte = input[offset]
                if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                    isInteger = false
                } else if !(byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) && byte != UInt8(ascii: "-") && byte != UInt8(ascii: "+") {
                    break
                }
                offset += 1
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: input[start..<offset]), as: UTF8.self)
            if isInteger, let value = Int64(text) {
                out.appendInteger(value)
            } else if isInteger, let value = UInt64(text) {
                out.appendInteger(value)
            } else if let value = Double(text), value.isFinite {
                out.appendDouble(value)
            } else {
                throw damaged("not a number: \(text.prefix(40))")
            }
        }
    }
}
