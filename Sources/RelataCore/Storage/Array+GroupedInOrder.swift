extension Array {
    /// The elements grouped by `group`, groups in the order their first element appears, each
    /// group's elements in their order: how backends split a batch of keys into one statement per
    /// table.
    @inlinable
    package func groupedInOrder<Group: Hashable>(by group: (Element) -> Group) -> [(Group, [Element])] {
        // Most batches are of one group: no dictionary then.
        guard let first = self.first.map(group) else { return [] }
        if allSatisfy({ group($0) == first }) { return [(first, self)] }
        var order: [Group] = [], groups: [Group: [Element]] = [:]
        for element in self {
            let name = group(element)
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(element)
        }
        return order.map { ($0, groups[$0]!) }
    }
}
