/// The indices (into `values`) of one longest strictly increasing subsequence, in order.
///
/// Used when a to-many relation is replaced by a new order: the elements whose old positions form
/// this subsequence kept their relative order and keep their keys; only the others are rewritten.
///
/// - Complexity: O(n log n).
func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
    guard !values.isEmpty else { return [] }
    var tails: [Int] = []            // index into `values` of the smallest tail of each length
    var previous = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
        var low = 0
        var high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
        }
        if low > 0 { previous[index] = tails[low - 1] }
        if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var result: [Int] = []
    var index = tails.last!
    while index >= 0 {
        result.append(index)
        index = previous[index]
    }
    return result.reversed()
}
