/// The sources of one target in a ``Backlinks`` index: an array while there are few, a set past
/// ``threshold``.
///
/// A link write adds its source knowing it is new (``appendNew(_:)``): while the sources are few
/// that is an append, with no hashing — a `Set` hashed each source once and again each time it
/// grew (two of the nineteen hash operations an in-memory message save made). Removing one of
/// few is a scan of at most ``threshold`` ids; past it the set keeps removal O(1), so a target
/// with a million sources loses them one at a time without a scan each.
@usableFromInline
struct BacklinkSources<ID: Hashable & Sendable>: Sendable {
    /// The sources while there are at most ``threshold``, in the order they were added.
    @usableFromInline var few: [ID]
    /// The sources once there were more than ``threshold`` (then ``few`` is empty).
    @usableFromInline var many: Set<ID>?

    @usableFromInline static var threshold: Int { 256 }

    @inlinable
    init() {
        few = []
        many = nil
    }

    /// The sources of `set`.
    @inlinable
    init(_ set: Set<ID>) {
        if set.count > Self.threshold {
            few = []
            many = set
        } else {
            few = Array(set)
            many = nil
        }
    }

    @inlinable var count: Int { many?.count ?? few.count }
    @inlinable var isEmpty: Bool { count == 0 }

    /// The sources, in no particular order.
    @inlinable var ids: [ID] { many.map(Array.init) ?? few }

    @inlinable
    func contains(_ id: ID) -> Bool {
        if let many { return many.contains(id) }
        return few.contains(id)
    }

    /// Adds `id`, known not to be here already (the source of a link just made).
    @inlinable
    mutating func appendNew(_ id: ID) {
        if many != nil {
            many!.insert(id)
        } else if few.count < Self.threshold {
            few.append(id)
        } else {
            var set = Set(few)
            set.insert(id)
            few = []
            many = set
        }
    }

    /// Adds `id` unless it is here already.
    @inlinable
    mutating func insert(_ id: ID) {
        guard !contains(id) else { return }
        appendNew(id)
    }

    /// Removes `id`; returns whether it was here.
    @inlinable
    @discardableResult
    mutating func remove(_ id: ID) -> Bool {
        if many != nil { return many!.remove(id) != nil }
        guard let index = few.firstIndex(of: id) else { return false }
        few.swapAt(index, few.count - 1)
        few.removeLast()
        return true
    }
}
