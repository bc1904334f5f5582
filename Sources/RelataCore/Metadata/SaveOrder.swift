import Foundation

/// The ids of a table in the order of their save times (``Metadata/updatedAt``), kept in a
/// context that holds every entity, so that `filter(.updated(within:))` finds its entities in
/// O(log n + k) instead of testing every one. The times themselves are in the entities' slots
/// (`EntityStorage.times`): a save hashes its id once, for its entity and its time together.
///
/// Times come from the clock at each save, so they mostly arrive in order: an entry later than
/// the last one is appended to the sorted entries (O(1)); one earlier (a clock set back) goes to
/// a short unsorted run merged in when it grows past √n. An entry replaced or removed stays
/// where it is until the dead outnumber the live (a pass drops them: amortized O(1)); an entry
/// is live while its id still has its time, which every operation that needs it is given
/// (`time`). A value: tables copy it as they copy their entities (copy-on-write arrays).
@usableFromInline
struct SaveOrder<ID: Hashable & Sendable>: Sendable {
    @usableFromInline var times: [Date] = []
    @usableFromInline var ids: [ID] = []
    /// Entries earlier than the last sorted one, in no order.
    @usableFromInline var recentTimes: [Date] = []
    @usableFromInline var recentIDs: [ID] = []
    /// How many entries (sorted or recent) are no longer live.
    @usableFromInline var dead = 0

    /// The order of `entries` (an id and its time each, every id once).
    @inlinable
    init(sorting entries: some Sequence<(ID, Date)>) {
        let sorted = entries.sorted { $0.1 < $1.1 }
        times = sorted.map { $0.1 }
        ids = sorted.map { $0.0 }
    }

    /// Keeps the order as `id`'s time changes from `old` to `new` (`live`: about how many ids
    /// have a time now; `time`: the time each id has now). Inlinable: a save's usual step, a
    /// time later than every other appended, runs specialized where the table's type is.
    @inlinable
    mutating func move(_ id: ID, from old: Date?, to new: Date?, live: Int, time: (ID) -> Date?) {
        if old != nil { dead += 1 }
        if let new {
            if recentIDs.isEmpty, times.last.map({ $0 <= new }) ?? true {
                times.append(new)
                ids.append(id)
            } else {
                insertRecent(new, id, time: time)
            }
        }
        if dead > max(64, live) { compact(time: time) }
    }

    /// Adds an entry earlier than the last sorted one to the recent run.
    @usableFromInline
    mutating func insertRecent(_ time: Date, _ id: ID, time timeOf: (ID) -> Date?) {
        recentTimes.append(time)
        recentIDs.append(id)
        if recentIDs.count > max(64, Int(Double(times.count).squareRoot())) { compact(time: timeOf) }
    }

    /// Merges the recent run into the sorted entries and drops the dead ones. (Inlinable: an
    /// erasure of many entities compacts several times, and unspecialized, the merge looked the
    /// generic metadata of its iterators up at every step.)
    @inlinable
    mutating func compact(time timeOf: (ID) -> Date?) {
        func isLive(_ time: Date, _ id: ID) -> Bool { timeOf(id) == time }
        let recent = recentIDs.indices.filter { isLive(recentTimes[$0], recentIDs[$0]) }
            .sorted { recentTimes[$0] < recentTimes[$1] }
        var merged = SaveOrder(sorting: [])
        merged.times.reserveCapacity(times.count + recent.count)
        merged.ids.reserveCapacity(times.count + recent.count)
        var next = 0
        for (time, id) in zip(times, ids) where isLive(time, id) {
            while next < recent.count, recentTimes[recent[next]] < time {
                merged.times.append(recentTimes[recent[next]])
                merged.ids.append(recentIDs[recent[next]])
                next += 1
            }
            merged.times.append(time)
            merged.ids.append(id)
        }
        for index in recent[next...] {
            merged.times.append(recentTimes[index])
            merged.ids.append(recentIDs[index])
        }
        self = merged
    }

    /// The ids whose time is within `range`, in no order (`time`: the time each id has now).
    ///
    /// - Complexity: O(log n + k + d), k the ids found, d the dead entries among them (at most n).
    func ids(within range: ClosedRange<Date>, time timeOf: (ID) -> Date?) -> [ID] {
        let lower = position(of: range.lowerBound, orAfter: false)
        let upper = position(of: range.upperBound, orAfter: true)
        var found: [ID] = []
        if lower < upper {
            for index in lower..<upper where timeOf(ids[index]) == times[index] { found.append(ids[index]) }
        }
        for (time, id) in zip(recentTimes, recentIDs) where range.contains(time) && timeOf(id) == time { found.append(id) }
        return found
    }

    /// The first position in ``times`` whose time is not below `time` (`orAfter`: not at most
    /// `time`).
    private func position(of time: Date, orAfter: Bool) -> Int {
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) / 2
            if orAfter ? times[middle] <= time : times[middle] < time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// What differs between the order and `current` (every id's time now), if anything:
    /// checked by `checkInvariants()`.
    func mismatch(with current: [ID: Date]) -> String? {
        var live: [ID: Date] = [:]
        for (time, id) in zip(times + recentTimes, ids + recentIDs) where current[id] == time {
            if live.updateValue(time, forKey: id) != nil { return "the order of save times holds \(id) twice" }
        }
        guard live == current else { return "the order of save times holds \(live.count) live entries for \(current.count) times" }
        guard zip(times, times.dropFirst()).allSatisfy({ $0 <= $1 }) else { return "the order of save times is not sorted" }
        return nil
    }
}
