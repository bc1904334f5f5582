/// A part of a to-many relation's list, by place: its first or last elements, or a range of
/// offsets — what a screen shows of a long list (a chat's newest messages), read without the rest.
///
/// ```swift
/// let newest = context.ids(of: "c0", \Chat.$messages, page: .last(20))
/// ```
///
/// Over a ``Store``, a page of a list the context does not hold is read by index — the rows of
/// the page only, never the whole list; a list the context holds (it read or wrote it) is sliced.
/// A count or offset below zero is taken as zero, and a page past the list's end holds what is
/// there.
public enum ListPage: Hashable, Sendable {
    /// The first `n` elements.
    case first(Int)
    /// The last `n` elements, in the list's order.
    case last(Int)
    /// The elements at these offsets (from 0).
    case range(Range<Int>)

    /// The offsets of the page in a list of `count` elements.
    public func offsets(in count: Int) -> Range<Int> {
        let count = max(0, count)
        switch self {
        case .first(let n): return 0..<min(max(0, n), count)
        case .last(let n): return max(0, count - max(0, n))..<count
        case .range(let range): return range.clamped(to: 0..<count)
        }
    }

    /// The elements of `list` in this page.
    public func slice<C: RandomAccessCollection>(_ list: C) -> C.SubSequence where C.Index == Int {
        let offsets = offsets(in: list.count)
        return list[(list.startIndex + offsets.lowerBound)..<(list.startIndex + offsets.upperBound)]
    }
}
