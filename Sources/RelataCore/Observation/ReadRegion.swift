import Synchronization

/// One place an observed closure read (see ``Store/observe(_:)``): what a commit must touch for
/// the closure's value to be computed again.
@usableFromInline
enum RegionKey: Hashable, @unchecked Sendable {
    // `AnyHashable` wraps entity ids, which are `Sendable`.
    /// Which entities of a type exist (`ids(of:)`, `count(of:)`, `query(in:)`).
    case type(ObjectIdentifier)
    /// One entity (its value, or that it exists).
    case entity(ObjectIdentifier, AnyHashable)
    /// The links of one source through one relation (type, relation ordinal, source id).
    case links(ObjectIdentifier, Int, AnyHashable)
    /// The sources linking to one target through a one-way relation (its backlinks).
    case backlinks(ObjectIdentifier, Int, AnyHashable)
    /// Every backlink of a one-way to-one relation (a retarget leaves the old target's
    /// backlinks, which the commit does not name).
    case allBacklinks(ObjectIdentifier, Int)
    /// Dynamic relationships.
    case dynamic
    /// The entities of a type a filtered query watches (see ``RegionWatch``): a commit touching
    /// the type reaches the observer only when the watch says one of its entities can matter.
    case watched(ObjectIdentifier)
}

/// Collects the ``RegionKey``s a closure reads through a context made by
/// ``Context/recordingReads(into:)``.
@usableFromInline
final class RegionRecorder: Sendable {
    private let keys = Mutex(Set<RegionKey>())
    private let watchList = Mutex([RegionWatch]())

    @usableFromInline init() {}

    @usableFromInline
    func insert(_ key: RegionKey) {
        _ = keys.withLock { $0.insert(key) }
    }

    /// Records that a query watched the entities of a type (in place of reading which exist).
    @usableFromInline
    func watch(_ watch: RegionWatch) {
        insert(.watched(watch.type))
        watchList.withLock { $0.append(watch) }
    }

    /// What was read.
    var region: Set<RegionKey> {
        keys.withLock { $0 }
    }

    /// What was watched.
    var watches: [RegionWatch] {
        watchList.withLock { $0 }
    }
}

extension Context {
    /// This context, recording every read into `recorder` (copies made from it do not record).
    func recordingReads(into recorder: RegionRecorder) -> Context {
        var copy = self
        copy.storage = storage.copy()
        copy.storage.region = recorder
        return copy
    }

    /// Notes a read of `key`, when this context records its reads.
    @inlinable
    func noteRead(_ key: @autoclosure () -> RegionKey) {
        if let region = storage.region { region.insert(key()) }
    }

    /// This context, not recording its reads (a query that records a ``RegionWatch`` in place
    /// of the ids it read).
    @usableFromInline var notRecording: Context {
        guard storage.region != nil else { return self }
        var copy = self
        copy.storage = storage.copy()
        return copy
    }

    /// What records this context's reads, if anything does.
    @inlinable var readRecorder: RegionRecorder? {
        storage.region
    }
}
