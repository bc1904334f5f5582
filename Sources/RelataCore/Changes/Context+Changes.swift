import Foundation

/// Recording and merging changes (see ``ChangeSet``).
extension Context {
    /// Starts recording every change made to this context, as `replica`, from its current state:
    /// the common base of the change sets this copy will exchange. Recording again restarts
    /// from the current state.
    ///
    /// - Parameter replica: A name unique among the copies that will merge each other's changes;
    ///   it breaks ties between their clocks.
    public mutating func beginRecordingChanges(replica: String) {
        exclusivelyMutating { $0.beginRecordingHolding(replica: replica) }
    }

    private mutating func beginRecordingHolding(replica: String) {
        var base = self
        base.detachRecorder()
        storage = storage.copy()
        storage.recorder = ChangeRecorder(replica: replica, base: base)
    }

    /// Stops recording and forgets the recorded changes.
    public mutating func endRecordingChanges() {
        guard storage.recorder != nil else { return }
        detachRecorder()
    }

    /// Whether changes are being recorded.
    public var isRecordingChanges: Bool { storage.recorder != nil }

    /// Every change since recording began: made here or merged from other copies, in stamp order.
    /// Empty when not recording.
    public var changes: ChangeSet {
        ChangeSet(operations: storage.recorder?.operations ?? [])
    }

    /// Applies the changes another copy made since the common base.
    ///
    /// When this context is recording, the result is the common base with every known change
    /// (own and merged) replayed in stamp order, so any two copies that merged the same change
    /// sets are equal, whatever the order of merging; changes already known are skipped. When it
    /// is not recording, the changes are replayed onto the current state in order.
    ///
    /// No hook runs: hooks ran where the changes were made, and what they changed is recorded.
    ///
    /// - Complexity: O(changes since the base) when a merged change is older than one already
    ///   known; O(new changes) otherwise.
    public mutating func merge(_ changes: ChangeSet) {
        exclusivelyMutating { $0.mergeHolding(changes) }
    }

    private mutating func mergeHolding(_ changes: ChangeSet) {
        guard var recorder = storage.recorder else {
            for operation in changes.operations { replay(operation) }
            return
        }
        let new = changes.operations.filter { !recorder.stamps.contains($0.stamp) }.sorted { $0.stamp < $1.stamp }
        guard let newest = new.last?.stamp else { return }
        let appendsOnly = recorder.operations.last.map { $0.stamp < new[0].stamp } ?? true
        recorder.counter = max(recorder.counter, newest.counter)
        for operation in new { recorder.stamps.insert(operation.stamp) }
        var result: Context
        recorder.operations.append(contentsOf: new)
        if !appendsOnly {
            recorder.operations.sort { $0.stamp < $1.stamp }
            result = recorder.base
            for operation in recorder.operations { result.replay(operation) }
        } else {
            // Every new change is later than the known ones: replay them onto the current state,
            // in order.
            result = self
            self = Context(storage: Context.emptyStorage)  // keeps `result`'s storage unique
            result.detachRecorder()
            for operation in new { result.replay(operation) }
        }
        result.storage = result.storage.copy()
        result.storage.recorder = recorder
        self = result
    }

    mutating func replay(_ operation: any ChangeOperation) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        storage.generator = JitterGenerator(seed: operation.stamp.seed)
        operation.replay(into: &self)
    }

    /// Drops the recorder (into a private copy of the storage when shared).
    mutating func detachRecorder() {
        guard storage.recorder != nil else { return }
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        storage.recorder = nil
    }

    // MARK: - Recording (no-ops unless recording)

    @inlinable
    mutating func recordUpsert<Entity: EntityModelProtocol>(
        input: Entity, merged: Entity, options: MergeStrategy<Entity>
    ) {
        guard storage.recorder != nil else { return }
        let stamp = storage.recorder!.nextStamp()
        let operation =
            if let name = options.replayName {
                EntityUpsert(stamp: stamp, value: input, strategy: name)
            } else {
                EntityUpsert(stamp: stamp, value: merged, strategy: .replace)
            }
        storage.recorder!.append(operation)
    }

    @inlinable
    mutating func recordErasure<Entity: EntityModelProtocol>(_: Entity.Type, id: Entity.ID) {
        guard storage.recorder != nil else { return }
        let stamp = storage.recorder!.nextStamp()
        storage.recorder!.append(EntityErasure<Entity>(stamp: stamp, id: id))
    }

    @inlinable
    mutating func recordLink<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, source: S.ID, target: T.ID, key: PositionKey?, inverseKey: PositionKey?
    ) {
        guard storage.recorder != nil else { return }
        recordLinkChange(.link, d, source: source, target: target, key: key, inverseKey: inverseKey)
    }

    @inlinable
    mutating func recordMove<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, source: S.ID, target: T.ID, key: PositionKey
    ) {
        guard storage.recorder != nil else { return }
        recordLinkChange(.move, d, source: source, target: target, key: key, inverseKey: nil)
    }

    @inlinable
    mutating func recordUnlink<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, source: S.ID, target: T.ID
    ) {
        guard storage.recorder != nil else { return }
        recordLinkChange(.unlink, d, source: source, target: target, key: nil, inverseKey: nil)
    }

    @usableFromInline
    mutating func recordLinkChange<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ kind: LinkChange<S, T>.Kind, _ d: RelationDescriptor<S, T>,
        source: S.ID, target: T.ID, key: PositionKey?, inverseKey: PositionKey?
    ) {
        let stamp = storage.recorder!.nextStamp()
        storage.recorder!.append(
            LinkChange(
                stamp: stamp, kind: kind, descriptor: d, source: source, target: target,
                key: key, inverseKey: inverseKey
            )
        )
    }

    // MARK: - Replay

    /// Stores `entity` merged by `options`, without recording (a replayed upsert).
    /// Like a save, it records the time (``Metadata``) and erases the entity's tombstone.
    mutating func storeEntity<Entity: EntityModelProtocol>(_ entity: Entity, options: MergeStrategy<Entity>) {
        eraseTombstone(of: Entity.self, id: entity.id)
        let table = mutableTable(Entity.self)
        table.touch(entity.id)
        if case .custom = options.kind, let old = table.entity(entity.id) {
            table.setEntity(options.mergeValues(old, entity), for: entity.id, savedAt: Date())
        } else {
            table.setEntity(entity, for: entity.id, savedAt: Date())
        }
    }

    /// Replays a recorded link: links (or repositions) `target` at the recorded keys.
    mutating func replayLink<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, source: S.ID, target: T.ID, key: PositionKey?, inverseKey: PositionKey?
    ) {
        guard d.key.toMany else {
            linkOne(d, source: source, to: target, inverseKey: inverseKey)
            return
        }
        let table = mutableTable(S.self).linkTable(d.key, T.ID.self)
        let linked = table.list(of: source)?.contains(target) ?? false
        if let key {
            table.place(target, in: source, at: key)
        } else if !linked {
            _ = table.append(target, to: source, using: &storage.generator)
        }
        if linked {
            if let inverse = d.inverse, inverse.toMany, let inverseKey {
                mutableTable(T.self).linkTable(inverse, S.ID.self).place(source, in: target, at: inverseKey)
            }
        } else {
            addOtherSide(d, target: target, source: source, key: inverseKey)
        }
    }
}
