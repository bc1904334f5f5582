import Foundation

/// An entity's payload split for a row of typed columns: each top-level property whose value a
/// column can hold exactly becomes a ``PropertyEntry``, and the rest stays a payload of its own
/// (``rest``) — `nil` values, `NaN`, text holding a NUL character, nested values JSON cannot
/// hold exactly (holding `Data` or a non-finite number), a name that repeats, and anything the
/// backend declines. ``assemble(rest:properties:)`` puts them back together: the payload it
/// makes decodes to the same entity (its entries may come in another order).
///
/// A payload that is not the binary keyed form (an entity that encodes a single value, or JSON
/// written by a format older than 4) is all rest. A row that holds only links has an empty
/// payload and an empty rest; every entity's rest is a whole payload (at least its header), so
/// a row holds an entity exactly when its rest is not empty.
package struct SplitPayload: Sendable, Equatable {
    /// The payload of the entries no column holds.
    package var rest: Data
    /// The entries columns hold, in the payload's order.
    package var properties: [PropertyEntry]

    /// The split of a row whose columns were written apart already (``_SplitColumnWriter``).
    package init(rest: Data, properties: [PropertyEntry]) {
        self.rest = rest
        self.properties = properties
    }

    /// Splits `payload`, keeping in ``rest`` every entry `accept` declines (by name and column
    /// kind).
    package init(splitting payload: Data, accept: (String, PropertyColumnKind) -> Bool = { _, _ in true }) throws {
        properties = []
        guard PayloadFormat.isBinary(payload), payload.count > PayloadFormat.magic.count + 1,
            payload[payload.startIndex + PayloadFormat.magic.count] == PayloadFormat.Tag.keyed.rawValue
        else {
            rest = payload
            return
        }
        var kept: [UInt8] = [], keptCount = 0
        var found: [PropertyEntry] = []
        try payload.withUnsafeBytes { bytes in
            let reader = PayloadReader(bytes: bytes)
            let offset = PayloadFormat.magic.count
            let (_, afterCount) = try reader.varint(at: offset + 1)
            let (length, first) = try reader.length(at: afterCount)
            guard first + length == bytes.count else { throw PayloadFormat.damaged("bytes after the value") }
            var names = Set<String>()
            var entry = first
            while entry < first + length {
                let (key, valueOffset) = try reader.textRange(at: entry)
                let next = try reader.skip(at: valueOffset)
                let name = reader.string(key)
                if names.insert(name).inserted, let value = try Self.columnValue(reader, at: valueOffset), accept(name, value.kind) {
                    found.append(PropertyEntry(name: name, value: value))
                } else {
                    kept.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[entry..<next]))
                    keptCount += 1
                }
                entry = next
            }
        }
        properties = found
        rest = Self.payload(count: keptCount, entries: kept)
    }

    /// The value a column can hold exactly for the payload value at `offset`, if any.
    static func columnValue(_ reader: PayloadReader, at offset: Int) throws -> PropertyValue? {
        switch try reader.tag(at: offset) {
        case .keyed, .unkeyed: return try PayloadJSON.text(of: reader, at: offset).map(PropertyValue.json)
        default:
            return try reader.scalar(at: offset).flatMap(columnValue)
        }
    }

    /// The value a column can hold exactly for `value`, if any: not `NaN`, not text holding a NUL
    /// character.
    static func columnValue(_ value: StoredValue) -> PropertyValue? {
        switch PropertyValue(value) {
        case .double(let value) where value.isNaN: nil
        case .text(let text) where text.utf8.contains(0): nil
        case let value: value
        }
    }

    /// A whole payload holding a keyed value of `count` entries.
    static func payload(count: Int, entries: [UInt8]) -> Data {
        var bytes = PayloadFormat.magic
        bytes.reserveCapacity(entries.count + 16)
        bytes.appendTag(.keyed)
        bytes.appendVarint(UInt64(count))
        bytes.appendVarint(UInt64(entries.count))
        bytes.append(contentsOf: entries)
        return Data(bytes)
    }

    /// The payload `rest` and `properties` were split from (``rest`` itself when there are no
    /// properties).
    ///
    /// - Throws: `DecodingError` when `rest` is not a keyed payload or a JSON value is damaged.
    package static func assemble(rest: Data, properties: [PropertyEntry]) throws -> Data {
        guard !properties.isEmpty else { return rest }
        var entries: [UInt8] = []
        var count = 0
        if !rest.isEmpty {
            try rest.withUnsafeBytes { bytes in
                let reader = PayloadReader(bytes: bytes)
                let offset = PayloadFormat.magic.count
                guard bytes.count > offset, bytes[0] == PayloadFormat.magic[0], bytes[1] == PayloadFormat.magic[1],
                    try reader.tag(at: offset) == .keyed
                else { throw PayloadFormat.damaged("a row's columns come with a payload that is not keyed") }
                let (stored, afterCount) = try reader.varint(at: offset + 1)
                let (length, first) = try reader.length(at: afterCount)
                guard first + length == bytes.count, stored <= UInt64(length) else { throw PayloadFormat.damaged("bytes after the value") }
                count = Int(stored)
                entries.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[first..<(first + length)]))
            }
        }
        for property in properties {
            entries.appendText(property.name)
            try property.value.append(to: &entries)
            count += 1
        }
        return payload(count: count, entries: entries)
    }

    /// Checks that `rest` and `properties` make one payload (what ``assemble(rest:properties:)``
    /// checks), without making it: `rest` is a keyed payload and every JSON value reads.
    ///
    /// - Throws: `DecodingError` when they do not.
    package static func check(rest: Data, properties: [PropertyEntry]) throws {
        try rest.withUnsafeBytes { bytes in
            let offset = PayloadFormat.magic.count
            guard bytes.count > offset, bytes[0] == PayloadFormat.magic[0], bytes[1] == PayloadFormat.magic[1],
                try PayloadReader(bytes: bytes).tag(at: offset) == .keyed
            else { throw PayloadFormat.damaged("a row's columns come with a payload that is not keyed") }
        }
        var scratch: [UInt8] = []
        for case .json(let text) in properties.lazy.map(\.value) {
            scratch.removeAll(keepingCapacity: true)
            try PayloadJSON.append(text, to: &scratch)
        }
    }
}
