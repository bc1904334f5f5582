import Foundation

/// One to-one link kept in its source's entity row (see ``EntityRecord/links``).
@usableFromInline
struct ToOneLink: Equatable, Sendable {
    @usableFromInline var relation: String
    @usableFromInline var target: String
    /// The source's position in the target's list, for a to-one side whose inverse is to-many.
    @usableFromInline var inversePosition: String?

    @inlinable
    init(relation: String, target: String, inversePosition: String?) {
        self.relation = relation
        self.target = target
        self.inversePosition = inversePosition
    }
}

/// The to-one links of one source, in its entity row: a version byte (1), a varint count, then
/// per link the relation name, the target id and the inverse position (absent: a 0 byte;
/// present: a 1 byte and the text), each text a varint byte count and UTF-8.
@usableFromInline
enum ToOneLinkColumn {
    /// The column `write` fills: it appends each link's relation, target and inverse position,
    /// and returns how many it appended; `nil` when none.
    @inlinable
    static func encode(_ write: (inout [UInt8]) throws -> Int) rethrows -> Data? {
        var bytes: [UInt8] = [1, 0]  // the version, and a count patched below
        let count = try write(&bytes)
        guard count > 0 else { return nil }
        guard count < 0x80 else {
            // A count of two varint bytes or more (128 to-one relations on one type).
            var head: [UInt8] = [1]
            head.appendVarint(UInt64(count))
            return Data(head + bytes[2...])
        }
        bytes[1] = UInt8(count)
        return Data(bytes)
    }

    /// Appends one link to a column being written (see ``encode(_:)``).
    @inlinable
    static func append(relation: String, target: String, inversePosition: PositionKey?, to bytes: inout [UInt8]) {
        bytes.appendText(relation)
        bytes.appendText(target)
        if let position = inversePosition {
            bytes.append(1)
            bytes.appendVarint(UInt64(position.length))
            position.appendBytes(to: &bytes)
        } else {
            bytes.append(0)
        }
    }

    /// The links in `data`.
    ///
    /// - Throws: `DecodingError` when the bytes are damaged.
    static func decode(_ data: Data) throws -> [ToOneLink] {
        try data.withUnsafeBytes { bytes in
            let reader = PayloadReader(bytes: bytes)
            guard try reader.byte(at: 0) == 1 else { throw PayloadFormat.damaged("link column version \(bytes[0])") }
            let (count, start) = try reader.varint(at: 1)
            guard count <= UInt64(bytes.count) else { throw PayloadFormat.damaged("\(count) links in \(bytes.count) bytes") }
            var links: [ToOneLink] = []
            links.reserveCapacity(Int(count))
            var offset = start
            for _ in 0..<count {
                let (relation, afterRelation) = try reader.textRange(at: offset)
                let (target, afterTarget) = try reader.textRange(at: afterRelation)
                var position: String?
                offset = afterTarget + 1
                if try reader.byte(at: afterTarget) == 1 {
                    let (range, next) = try reader.textRange(at: offset)
                    position = reader.string(range)
                    offset = next
                }
                links.append(ToOneLink(relation: reader.string(relation), target: reader.string(target), inversePosition: position))
            }
            guard offset == bytes.count else { throw PayloadFormat.damaged("bytes after the links") }
            return links
        }
    }
}
