import ChatExample
import Foundation
import Relata
import Synchronization

/// Reads one context from several threads at once and counts the answers that are wrong: the
/// store holds chats "s0", "s1", … whose messages are "s<k>-0", "s<k>-1", … in that order, each
/// by user "u".
struct SharedContextReads: Sendable {
    let context: Context

    /// Runs `reads` checked reads on each of `threads` threads (real threads, started together)
    /// and returns how many answers were wrong.
    func run(threads: Int, reads: Int) async -> Int {
        let chats = context.ids(of: Chat.self).count
        guard chats > 0 else { return reads * threads }
        let wrong = Atomic<Int>(0)
        let finished = DispatchGroup()
        for thread in 0..<threads {
            finished.enter()
            let worker = Thread {
                var state = UInt64(thread + 1) &* 0x9E37_79B9_7F4A_7C15
                for read in 0..<reads {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let chat = "s\(Int(state >> 33) % chats)"
                    if !check(chat: chat, kind: read % 3) { wrong.add(1, ordering: .relaxed) }
                }
                finished.leave()
            }
            worker.stackSize = 8 << 20
            worker.start()
        }
        await withCheckedContinuation { done in finished.notify(queue: .global()) { done.resume() } }
        return wrong.load(ordering: .relaxed)
    }

    /// One read of `chat`: a lookup (0), its message ids (1) or a nested resolve (2).
    private func check(chat: String, kind: Int) -> Bool {
        switch kind {
        case 0:
            return context.entity(Chat.self, id: chat)?.id == chat
        case 1:
            let ids = context.ids(of: chat, \Chat.$messages)
            return !ids.isEmpty && ids == ids.indices.map { "\(chat)-\($0)" }
        default:
            guard let resolved = Chat.query(chat, in: context).with(\.$messages, { $0.with(\.$author) }).resolve(),
                let messages = resolved.messages, !messages.isEmpty
            else { return false }
            return messages.enumerated().allSatisfy { $0.element.id == "\(chat)-\($0.offset)" && $0.element.author?.id == "u" }
        }
    }
}
