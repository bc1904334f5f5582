extension RelationDelta {
    /// Writes the entries into `links` (the relation's table in the copy being brought up to
    /// date) and, for a one-way relation, the targets' `backlinks`.
    @inlinable
    func apply(to links: LinkTable<Source.ID, Target.ID>, backlinks: Backlinks<Source, Target>?) {
        for (source, target, key) in toMany {
            // Pair by pair: lists are patched, not replaced, so two copies of the state never
            // share a list buffer that the next write would copy whole.
            if let key {
                links.place(target, in: source, at: key)
                backlinks?.insert(source, for: target)
            } else {
                links.remove(target, from: source, toMany: true)
                backlinks?.remove(source, for: target)
            }
        }
        for (source, new) in toOne {
            // One hash lookup per entry: set (or remove) and learn the target it replaced.
            let old = if let new { links.one.updateValue(new, forKey: source) } else { links.one.removeValue(forKey: source) }
            guard old != new, let backlinks else { continue }
            // Replacing a one-way to-one target moves its backlink.
            if let old { backlinks.remove(source, for: old) }
            if let new { backlinks.insert(source, for: new) }
        }
    }
}
