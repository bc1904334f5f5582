import Foundation

/// Where the properties and to-one links are in the rows of one entity table read with
/// `SELECT *`: the columns the table has now, named `c<n>` (a property's values of one kind), `r<n>`
/// and `r<n>_inverse`, matched to properties and relations through the catalog.
///
/// Reads select every column rather than those the catalog lists, so a column another
/// connection added since the catalog was read is never missed: its number is unknown, and the
/// catalog is read again.
package struct EntityRowLayout: Sendable {
    /// One to-one relation's columns in the row.
    package struct Slot: Sendable {
        package var relation: String
        /// The index of the target column.
        package var target: Int
        /// The index of the inverse position column, if the row has it.
        package var inverse: Int?
    }

    /// One property column in the row.
    package struct PropertySlot: Sendable {
        package var name: String
        package var kind: PropertyColumnKind
        /// The index of the column.
        package var index: Int
    }

    package private(set) var slots: [Slot] = []
    package private(set) var properties: [PropertySlot] = []
    /// The index of the column of when the entity was last saved
    /// (``TableCatalog/updatedAtColumn``), if the row has it.
    package private(set) var updatedAt: Int?

    /// The layout of rows whose columns are `names` (`id`, `payload`, then property and to-one
    /// columns).
    package init(type: String, columnNames names: [String], tables: TableSession) throws {
        var targets: [Int64: Int] = [:], inverses: [Int64: Int] = [:], values: [Int64: Int] = [:]
        for (index, name) in names.enumerated() {
            if name == TableCatalog.updatedAtColumn {
                updatedAt = index
                continue
            }
            if name.first == "c", let number = Int64(name.dropFirst()) {
                values[number] = index
                continue
            }
            guard name.first == "r" else { continue }
            let rest = name.dropFirst()
            if rest.hasSuffix("_inverse"), let number = Int64(rest.dropLast("_inverse".count)) {
                inverses[number] = index
            } else if let number = Int64(rest) {
                targets[number] = index
            }
        }
        guard !targets.isEmpty || !values.isEmpty else { return }
        var columns = tables.toOneColumns(of: type), propertyColumns = tables.catalog.propertyColumns(of: type)
        if targets.keys.contains(where: { number in !columns.contains { $0.number == number } })
            || values.keys.contains(where: { number in !propertyColumns.contains { $0.number == number } })
        {
            try tables.refresh()
            columns = tables.toOneColumns(of: type)
            propertyColumns = tables.catalog.propertyColumns(of: type)
        }
        for column in columns {
            guard let target = targets[column.number] else { continue }
            slots.append(Slot(relation: column.relation, target: target, inverse: inverses[column.number]))
        }
        for column in propertyColumns {
            guard let index = values[column.number] else { continue }
            properties.append(PropertySlot(name: column.name, kind: column.kind, index: index))
        }
    }

    /// The row's record: `rest` (the row's `payload` column) with the values of its property
    /// columns, read by `value` (a slot → its value, `nil` for NULL), kept apart so the entity
    /// decodes straight from them.
    ///
    /// - Throws: ``RelataError/Code/undecodableRecord`` naming `type` and `id` when the columns
    ///   cannot make a payload (a damaged JSON column, a payload that is not keyed), as for a
    ///   payload that does not decode.
    package func record(
        type: String, id: String, rest: Data, toOne: [ToOneLinkRecord], updatedAt: Date?, _ value: (PropertySlot) throws -> PropertyValue?
    ) throws -> EntityRecord {
        var entries: [PropertyEntry] = []
        if !rest.isEmpty {
            entries.reserveCapacity(properties.count)
            for slot in properties {
                guard let value = try value(slot) else { continue }
                entries.append(PropertyEntry(name: slot.name, value: value))
            }
        }
        do {
            return try EntityRecord(type: type, id: id, rest: rest, columns: entries, toOne: toOne, updatedAt: updatedAt)
        } catch {
            throw RelataError(code: .undecodableRecord, entityType: type, id: id, message: "the stored row of \(type) \"\(id)\" is damaged: \(error)")
        }
    }

    /// When the row's entity was last saved, its column read by `seconds` (column index →
    /// seconds since 2001, `nil` for NULL); `nil` when the row has no such column.
    package func updatedAt(_ seconds: (Int) throws -> Double?) rethrows -> Date? {
        guard let updatedAt, let value = try seconds(updatedAt) else { return nil }
        return Date(timeIntervalSinceReferenceDate: value)
    }

    /// The to-one links of a row, its texts read by `text` (column index → text, `nil` for NULL).
    package func links(_ text: (Int) throws -> String?) throws -> [ToOneLinkRecord] {
        var links: [ToOneLinkRecord] = []
        for slot in slots {
            guard let target = try text(slot.target) else { continue }
            links.append(ToOneLinkRecord(relation: slot.relation, target: target, inversePosition: try slot.inverse.flatMap(text)))
        }
        return links
    }
}
