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
    @usableFromInline
    static func encode(_ links: [ToOneLink]) -> Data {
        var bytes: [UInt8] = [1]
        bytes.appendVarint(UInt64(links.count))
        for link in links {
            bytes.appendText(link.relation)
            bytes.appendText(link.target)
            if let position = link.inversePosition {
                bytes.append(1)
                bytes.appendText(position)
            } else {
                bytes.append(0)
            }
        }
        return Data(bytes)
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
