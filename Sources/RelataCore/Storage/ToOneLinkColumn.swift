import Foundation

/// The to-one links of one source as versions 4 to 6 of the SQLite format kept them, in one
/// column of the entity row: a version byte (1), a varint count, then per link the relation
/// name, the target id and the inverse position (absent: a 0 byte; present: a 1 byte and the
/// text), each text a varint byte count and UTF-8. Read once, when such a file is upgraded.
package enum ToOneLinkColumn {
    /// The links in `data`, the column of the row (`type`, `id`).
    ///
    /// - Throws: ``RelataError`` with code ``RelataError/Code/undecodableRecord`` naming the row
    ///   when the bytes are damaged.
    package static func decode(_ data: Data, type: String, id: String) throws -> [ToOneLinkRecord] {
        do {
            return try decode(data)
        } catch {
            throw RelataError(
                code: .undecodableRecord, entityType: type, id: id, message: "the stored links of \(type) \"\(id)\" are damaged", underlying: error
            )
        }
    }

    /// The links in `data`.
    ///
    /// - Throws: `DecodingError` when the bytes are damaged.
    package static func decode(_ data: Data) throws -> [ToOneLinkRecord] {
        try data.withUnsafeBytes { bytes in
            let reader = PayloadReader(bytes: bytes)
            guard try reader.byte(at: 0) == 1 else { throw PayloadFormat.damaged("link column version \(bytes[0])") }
            let (count, start) = try reader.varint(at: 1)
            guard count <= UInt64(bytes.count) else { throw PayloadFormat.damaged("\(count) links in \(bytes.count) bytes") }
            var links: [ToOneLinkRecord] = []
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
                links.append(ToOneLinkRecord(relation: reader.string(relation), target: reader.string(target), inversePosition: position))
            }
            guard offset == bytes.count else { throw PayloadFormat.damaged("bytes after the links") }
            return links
        }
    }
}
