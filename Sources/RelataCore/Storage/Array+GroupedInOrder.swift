extension Array {
    /// The elements grouped by `group`, groups in the order their first element appears, each
    /// group's elements in their order: how backends split a batch of keys into one statement per
    /// table.
    @inlinable
    package func groupedInOrder<Group: Hashable>(by group: (Element) -> Group) -> [(Group, [Element])] {
        guard let head = first else { return [] }
        // Most batches are of one group: no dictionary then (each element's group found once).
        let headGroup = group(head)
        var split = 1
        while split < count, group(self[split]) == headGroup { split += 1 }
        if split == count { return [(headGroup, self)] }
        var order = [headGroup], groups = [headGroup: Array(self[..<split])]
        for element in self[split...] {
            let name = group(element)
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(element)
        }
        return order.map { ($0, groups[$0]!) }
    }
}
