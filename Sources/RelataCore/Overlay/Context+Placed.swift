extension Context {
    /// A context over `base` that starts with `placed`: the tables a finished context placed at
    /// the same snapshot (see `PlacedRows`), which no one else uses any more, their readers
    /// pointed at `base` — the faulters they have (each table's own: a clone gets copies) are
    /// pointed at it, not made again (making them was a tenth of a warm read).
    init(over base: ContextBase, taking placed: consuming Storage) {
        self.init(storage: consume placed)
        storage.base = base
        var reading = 0
        for table in storage.tables where table.repointFaulters(to: base) { reading += 1 }
        // Tables made before the context read storage (none a store hands over): made again.
        if reading < base.schema.types.count { installOverlay(base) }
    }

    /// How many entities and link sources the context holds the answer for.
    var heldRowCount: Int {
        storage.tables.reduce(0) { $0 + $1.heldRowCount }
    }
}

extension Context.Storage {
    /// What another context at the same snapshot may start from: the tables (each cloned, sharing
    /// its dictionaries until one of the two places more) and dynamic relationships read so far —
    /// nothing of a write, a change recording or an observer, and no base.
    func placedCopy() -> Context.Storage {
        let copy = Context.Storage()
        copy.types = types
        copy.tables = ContiguousArray(tables.map { $0.clone() })
        copy.dynamic = dynamic?.clone()
        copy.dynamicLoaded = dynamicLoaded
        return copy
    }

    /// What ``placedCopy()`` keeps, moved rather than cloned: for storage no context refers to
    /// any more, whose tables no one else can place into.
    func placedMove() -> Context.Storage {
        let moved = Context.Storage()
        moved.types = types
        moved.tables = tables
        moved.dynamic = dynamic
        moved.dynamicLoaded = dynamicLoaded
        return moved
    }
}
