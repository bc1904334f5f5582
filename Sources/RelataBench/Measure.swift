import Foundation

/// Median wall time of `runs` runs of `body`, each preceded by an untimed `setup`.
func median<State>(
    runs: Int, setup: () throws -> State, _ body: (inout State) throws -> Void
) rethrows -> Duration {
    var times: [Duration] = []
    for _ in 0..<runs {
        var state = try setup()
        let start = ContinuousClock.now
        try body(&state)
        times.append(ContinuousClock.now - start)
        withExtendedLifetime(state) {}
    }
    return times.sorted()[times.count / 2]
}

func median(runs: Int, _ body: () throws -> Void) rethrows -> Duration {
    try median(runs: runs, setup: {}, { _ in try body() })
}

/// The medians of `first` and `second` run in turn, `runs` times each (each run on state from
/// its `setup`, untimed): on a shared machine a slow spell slows both sides of a ratio, where
/// running every run of one side before the other's let it fall on one side alone.
func pairedMedians<A, B>(
    runs: Int,
    _ setupFirst: () throws -> A, _ first: (inout A) throws -> Void,
    _ setupSecond: () throws -> B, _ second: (inout B) throws -> Void
) rethrows -> (Duration, Duration) {
    var firstTimes: [Duration] = [], secondTimes: [Duration] = []
    for _ in 0..<runs {
        firstTimes.append(try median(runs: 1, setup: setupFirst, first))
        secondTimes.append(try median(runs: 1, setup: setupSecond, second))
    }
    return (firstTimes.sorted()[runs / 2], secondTimes.sorted()[runs / 2])
}

/// ``pairedMedians(runs:_:_:_:_:)`` of two operations without state.
func pairedMedians(runs: Int, _ first: () throws -> Void, _ second: () throws -> Void) rethrows -> (Duration, Duration) {
    try pairedMedians(runs: runs, {}, { _ in try first() }, {}, { _ in try second() })
}

/// Peak resident set size of this process (VmHWM), in bytes.
func peakResidentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kilobytes * 1024
    }
    return 0
}

extension Duration {
    var milliseconds: Double {
        Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15
    }
}

func format(_ duration: Duration) -> String {
    let ms = duration.milliseconds
    return ms < 10 ? String(format: "%.2f ms", ms) : String(format: "%.1f ms", ms)
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
