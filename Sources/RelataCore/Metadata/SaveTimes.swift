import Foundation

/// When each entity of a table was last saved (``Metadata/updatedAt``), and — in a context that
/// holds every entity — the ids in time order, so that `filter(.updated(within:))` finds its
/// entities in O(log n + k) instead of testing every one.
///
/// Times come from the clock at each save, so they mostly arrive in order: an entry later than
/// the last one is appended to the sorted entries (O(1)); one earlier (a clock set back) goes to
/// a short unsorted run merged in when it grows past √n. An entry replaced or removed stays
/// where it is until the dead outnumber the live (a pass drops them: amortized O(1)); an entry
/// is live while its id still has its time. A value: tables copy it as they copy their
/// entities (copy-on-write arrays).
@usableFromInline
struct SaveTimes<ID: Hashable & Sendable>: Sendable {
    /// Each entity's time.
    @usableFromInline private(set) var byID: [ID: Date] = [:]
    /// The entries in time order (ties in no order), or `nil` when the order is not kept (a
    /// table that reads storage: storage's index answers there).
    @usableFromInline var order: Order?

    @usableFromInline
    struct Order: Sendable {
        var times: [Date] = []
        var ids: [ID] = []
        /// Entries earlier than the last sorted one, in no order.
        var recentTimes: [Date] = []
        var recentIDs: [ID] = []
        /// How many entries (sorted or recent) are no longer live.
        var dead = 0
    }

    @usableFromInline init() {}

    /// The time of `id`; setting it keeps the order, when kept. (Inlinable: specialized where
    /// it is called, the dictionary is not reached through generic witnesses at every save.)
    @inlinable
    subscript(id: ID) -> Date? {
        get { byID[id] }
        set {
            let old = newValue.map { byID.updateValue($0, forKey: id) } ?? byID.removeValue(forKey: id)
            guard order != nil, old != newValue else { return }
            reorder(id, old: old, new: newValue)
        }
    }

    /// Keeps the order as `id`'s time changes from `old` to `new`.
    @usableFromInline
    mutating func reorder(_ id: ID, old: Date?, new: Date?) {
        if old != nil { order!.dead += 1 }
        if let new { insert(new, id) }
        if order!.dead > max(64, byID.count) { compact() }
    }

    /// Whether the times are kept in order (``keepOrder()``).
    var keepsOrder: Bool { order != nil }

    /// Keeps the times in order from now on (sorting those there are); nothing if it does already.
    mutating func keepOrder() {
        guard order == nil else { return }
        let sorted = byID.sorted { $0.value < $1.value }
        order = Order(times: sorted.map { $0.value }, ids: sorted.map { $0.key })
    }

    /// Stops keeping the order (a table that reads storage).
    @usableFromInline mutating func dropOrder() { order = nil }

    private mutating func insert(_ time: Date, _ id: ID) {
        if order!.recentIDs.isEmpty, order!.times.last.map({ $0 <= time }) ?? true {
            order!.times.append(time)
            order!.ids.append(id)
            return
        }
        order!.recentTimes.append(time)
        order!.recentIDs.append(id)
        if order!.recentIDs.count > max(64, Int(Double(order!.times.count).squareRoot())) { compact() }
    }

    private func isLive(_ time: Date, _ id: ID) -> Bool { byID[id] == time }

    /// Merges the recent run into the sorted entries and drops the dead ones.
    private mutating func compact() {
        guard var order else { return }
        let recent = order.recentIDs.indices.filter { isLive(order.recentTimes[$0], order.recentIDs[$0]) }
            .sorted { order.recentTimes[$0] < order.recentTimes[$1] }
        var times: [Date] = [], ids: [ID] = []
        times.reserveCapacity(byID.count)
        ids.reserveCapacity(byID.count)
        var next = 0
        for (time, id) in zip(order.times, order.ids) where isLive(time, id) {
            while next < recent.count, order.recentTimes[recent[next]] < time {
                times.append(order.recentTimes[recent[next]])
                ids.append(order.recentIDs[recent[next]])
                next += 1
            }
            times.append(time)
            ids.append(id)
        }
        for index in recent[next...] {
            times.append(order.recentTimes[index])
            ids.append(order.recentIDs[index])
        }
        order = Order(times: times, ids: ids)
        self.order = order
    }

    /// The ids whose time is within `range`, in no order; `nil` when the order is not kept.
    ///
    /// - Complexity: O(log n + k + d), k the ids found, d the dead entries among them (at most n).
    func ids(within range: ClosedRange<Date>) -> [ID]? {
        guard let order else { return nil }
        let lower = position(in: order.times, of: range.lowerBound, orAfter: false)
        let upper = position(in: order.times, of: range.upperBound, orAfter: true)
        var found: [ID] = []
        if lower < upper {
            for index in lower..<upper where isLive(order.times[index], order.ids[index]) { found.append(order.ids[index]) }
        }
        for (time, id) in zip(order.recentTimes, order.recentIDs) where range.contains(time) && isLive(time, id) { found.append(id) }
        return found
    }

    /// The first position in `times` (ascending) whose time is not below `time` (`orAfter`: not
    /// at most `time`).
    private func position(in times: [Date], of time: Date, orAfter: Bool) -> Int {
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) / 2
            if orAfter ? times[middle] <= time : times[middle] < time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// What differs between the kept order and the times, if anything: checked by
    /// `checkInvariants()`.
    func mismatch() -> String? {
        guard let order else { return nil }
        var live: [ID: Date] = [:]
        for (time, id) in zip(order.times + order.recentTimes, order.ids + order.recentIDs) where isLive(time, id) {
            if live.updateValue(time, forKey: id) != nil { return "the order of save times holds \(id) twice" }
        }
        guard live == byID else { return "the order of save times holds \(live.count) live entries for \(byID.count) times" }
        guard zip(order.times, order.times.dropFirst()).allSatisfy({ $0 <= $1 }) else { return "the order of save times is not sorted" }
        return nil
    }
}
