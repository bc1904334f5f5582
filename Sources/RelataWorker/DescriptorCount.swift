import Foundation
import Synchronization

/// Counts this process's open file descriptors (Linux: `/proc/self/fd`) while threads run a job.
enum DescriptorCount {
    static var now: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }

    /// Runs `job` 10 times on each of `threads` threads started together, and returns how many
    /// more descriptors were open at most meanwhile, and half a second after they all ended, than
    /// before they started.
    static func during(threads: Int, _ job: @escaping @Sendable () throws -> Void) async throws -> (peak: Int, after: Int) {
        let before = now
        let peak = Atomic<Int>(0)
        let running = Atomic<Bool>(true)
        let sampler = Thread {
            while running.load(ordering: .relaxed) {
                let count = now
                if count > peak.load(ordering: .relaxed) { peak.store(count, ordering: .relaxed) }
                usleep(200)
            }
        }
        sampler.start()
        let failures = Atomic<Int>(0)
        let finished = DispatchGroup()
        for _ in 0..<threads {
            finished.enter()
            Thread {
                for _ in 0..<10 where (try? job()) == nil { failures.add(1, ordering: .relaxed) }
                finished.leave()
            }.start()
        }
        await withCheckedContinuation { done in finished.notify(queue: .global()) { done.resume() } }
        running.store(false, ordering: .relaxed)
        if failures.load(ordering: .relaxed) > 0 { throw Failed(count: failures.load(ordering: .relaxed)) }
        try await Task.sleep(for: .milliseconds(500))
        return (max(0, peak.load(ordering: .relaxed) - before), now - before)
    }

    struct Failed: Error, CustomStringConvertible {
        let count: Int
        var description: String { "\(count) jobs threw" }
    }
}
