/// What a store over storage learns at open from the storage's ``StorageInventory``, without
/// reading rows: what its schema does not know (counted for ``Store/ignoredRecords``) and whether
/// rows were written in an older form (type names without their module, links of a mutual
/// relation stored on the side that no longer stores them, to-one links in link rows), which
/// the store then rewrites once, reading everything, under the write lock.
struct StoreInspection {
    /// Rows the schema does not know, by `Type`, `Type.relation` or `dynamic links`.
    var ignored: [String: Int] = [:]
    /// Whether some rows are in an older form.
    var needsUpgrade = false

    /// Inspects what `reader` holds against `schema`: the inventory, and a count for each type
    /// or relation the schema does not know.
    init(schema: EntitySchema, reading reader: any StorageReader) throws {
        let inventory = try reader.inventory()
        for type in inventory.entityTypes {
            // Rows under a name without its module are rewritten under the full name; the table
            // stays listed, empty, once they are (an upgrade done is not done again).
            if schema.isShortName(type), try reader.fetchEntityCount(of: type) > 0 { needsUpgrade = true }
            guard schema.type(named: type) == nil else { continue }
            let count = try reader.fetchEntityCount(of: type)
            if count > 0 { ignored[type, default: 0] += count }
        }
        for relation in inventory.relations {
            if schema.isShortName(relation.type), try reader.fetchLinkCount(of: relation) > 0 { needsUpgrade = true }
            guard let loader = schema.type(named: relation.type)?._relataStoreDescriptor.linkLoader(relation.relation) else {
                let count = try reader.fetchLinkCount(of: relation)
                if count > 0 { ignored["\(relation.type).\(relation.relation)", default: 0] += count }
                continue
            }
            // A table or column of a form the model no longer writes: rewritten if it holds links.
            if loader.storedInLinkRows != relation.isToMany, try reader.fetchLinkCount(of: relation) > 0 {
                needsUpgrade = true
            }
        }
        for group in inventory.dynamicLinkGroups where group.count > 0 {
            guard DynamicLink.Kind(rawValue: group.kind) != nil, schema.type(named: group.sourceType) != nil,
                schema.type(named: group.targetType) != nil
            else {
                ignored["dynamic links", default: 0] += group.count
                continue
            }
            if schema.isShortName(group.sourceType) || schema.isShortName(group.targetType) { needsUpgrade = true }
        }
    }
}
