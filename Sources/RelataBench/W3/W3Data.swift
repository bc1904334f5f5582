import Foundation
import Relata

/// Workload W3's data at scale S (Benchmarks/README.md): W1's users, chats and messages (no
/// attachments or replies; W3 does not read them) with an e-mail and age per user and a date,
/// read flag and searchable text per message.
struct W3Data {
    let scale: Double
    let userCount: Int
    let chatCount: Int
    let messageCount: Int

    init(scale: Double) {
        self.scale = scale
        userCount = Int(1_000 * scale)
        chatCount = Int(1_000 * scale)
        messageCount = Int(100_000 * scale)
    }

    /// 2026-01-01T00:00:00Z, the first message's date.
    static let firstDate = Date(timeIntervalSince1970: 1_767_225_600)

    func user(_ i: Int) -> W3User {
        W3User(id: "u\(i)", name: "User \(i)", email: Self.email(i), age: Self.age(i))
    }

    func chat(_ i: Int) -> W3Chat {
        W3Chat(id: "c\(i)", users: .ids(W1Data.members(chat: i, userCount: userCount)))
    }

    func message(_ j: Int) -> W3Message {
        let chat = j % chatCount
        return W3Message(
            id: "m\(j)", text: Self.text(j), sentAt: Self.sentAt(j), isRead: Self.isRead(j),
            author: .id(Self.author(j, chatCount: chatCount, userCount: userCount)), chat: .id("c\(chat)")
        )
    }

    static func email(_ i: Int) -> String { "user\(i)@example.com" }
    static func age(_ i: Int) -> Int { 18 + (i * 7) % 60 }
    static func sentAt(_ j: Int) -> Date { firstDate.addingTimeInterval(Double(j)) }
    static func isRead(_ j: Int) -> Bool { j % 3 != 0 }
    static func author(_ j: Int, chatCount: Int, userCount: Int) -> String {
        W1Data.members(chat: j % chatCount, userCount: userCount)[j % 10]
    }

    /// W1's text; every 100th message also names a release of four digits.
    static func text(_ j: Int) -> String {
        j % 100 == 0 ? "message \(j) release notes \(1_000 + (j / 100) % 1_000)" : "message \(j)"
    }

    // MARK: The queries' parameters

    /// Q1's e-mails: 1,000 users spread over the whole range (the same in every run).
    func lookupEmails(_ count: Int = 1_000) -> [String] {
        (0..<count).map { Self.email(($0 * 7_919) % userCount) }
    }

    /// Q2's date: messages sent after the middle one.
    var after: Date { Self.sentAt(messageCount / 2) }

    /// Q4's ages and page.
    static let ages = 30...39
    static let page = (limit: 50, offset: 100)

    /// Q5's words and Q6's text.
    static let search = "release notes 1042"
    static let scanned = "99999"

    // MARK: The expected answers (from the generating formulas, not from any store)

    /// Q2: the 20 newest messages after ``after``, newest first.
    var newest: [String] { (0..<20).map { "m\(messageCount - 1 - $0)" } }

    /// Q3: messages not read.
    var unread: Int { (0..<messageCount).count { !Self.isRead($0) } }

    /// Q4: users aged 30…39 by name (then id), the third page of 50.
    var agedPage: [String] {
        let matching = (0..<userCount).filter { Self.ages.contains(Self.age($0)) }
            .sorted { ("User \($0)", "u\($0)") < ("User \($1)", "u\($1)") }
        return Array(matching.dropFirst(Self.page.offset).prefix(Self.page.limit)).map { "u\($0)" }
    }

    /// Q5's best matches: the messages that hold every word of ``search``.
    var bestMatches: Set<String> {
        Set(stride(from: 0, to: messageCount, by: 100).filter { Self.text($0).contains(Self.search) }.map { "m\($0)" })
    }

    /// Q6: messages whose text contains ``scanned``, by id.
    var scannedIDs: [String] { (0..<messageCount).filter { Self.text($0).contains(Self.scanned) }.map { "m\($0)" }.sorted() }

    var description: String { "U=\(userCount) C=\(chatCount) M=\(messageCount)" }
}
