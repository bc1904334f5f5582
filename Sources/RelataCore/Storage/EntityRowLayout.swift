/// Where the to-one links are in the rows of one entity table read with `SELECT *`: the columns
/// the table has now, named `r<n>` and `r<n>_inverse`, matched to relations through the catalog.
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

    package private(set) var slots: [Slot] = []

    /// The layout of rows whose columns are `names` (`id`, `payload`, then to-one columns).
    package init(type: String, columnNames names: [String], tables: TableSession) throws {
        var targets: [Int64: Int] = [:], inverses: [Int64: Int] = [:]
        for (index, name) in names.enumerated() where name.first == "r" {
            let rest = name.dropFirst()
            if rest.hasSuffix("_inverse"), let number = Int64(rest.dropLast("_inverse".count)) {
                inverses[number] = index
            } else if let number = Int64(rest) {
                targets[number] = index
            }
        }
        guard !targets.isEmpty else { return }
        var columns = tables.toOneColumns(of: type)
        if targets.keys.contains(where: { number in !columns.contains { $0.number == number } }) {
            try tables.refresh()
            columns = tables.toOneColumns(of: type)
        }
        for column in columns {
            guard let target = targets[column.number] else { continue }
            slots.append(Slot(relation: column.relation, target: target, inverse: inverses[column.number]))
        }
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
