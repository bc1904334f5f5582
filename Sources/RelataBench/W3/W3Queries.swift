import Foundation
import Relata

/// W3's queries through Relata's public API as a SwiftletModel user writes them: key path
/// predicates, `sorted(by:)`, `limit(_:offset:)` and `matches` on the full-text index. The
/// predicates storage can test select the rows in SQL first, through the declared indexes.
enum W3Queries: W3QueryForm {
    /// Q1: the user with this e-mail.
    static func user(email: String, in context: Context) -> String? {
        W3User.query(in: context).filter(\.email == email).resolve().first?.id
    }

    /// Q2: the 20 newest messages sent after `date`, newest first.
    static func newest(after date: Date, in context: Context) -> [String] {
        W3Message.query(in: context)
            .filter(\.sentAt > date)
            .sorted(by: \.sentAt.desc)
            .limit(20)
            .resolve().map(\.id)
    }

    /// Q3: the number of unread messages.
    static func unread(in context: Context) -> Int {
        W3Message.query(in: context).filter(\.isRead == false).resolveCount()
    }

    /// Q4: users aged 30…39 sorted by name (then id), the third page of 50.
    static func agedPage(in context: Context) -> [String] {
        let page = W3Data.page
        return W3User.query(in: context)
            .filter(\.age >= W3Data.ages.lowerBound).and(\.age <= W3Data.ages.upperBound)
            .sorted(by: \.name, \.id)
            .limit(page.limit, offset: page.offset)
            .resolve().map(\.id)
    }

    /// Q5: the 20 best matches for `words` (the full-text index's ranking).
    static func search(_ words: String, in context: Context) -> [String] {
        W3Message.query(in: context).filter(.string(\.text, matches: words)).limit(20).resolve().map(\.id)
    }

    /// Q6: messages whose text contains `text`, by id.
    static func scan(_ text: String, in context: Context) -> [String] {
        W3Message.query(in: context).filter(.string(\.text, contains: text, caseSensitive: true)).sorted(by: \.id).resolve().map(\.id)
    }

    /// Q7: Q2 with each message's author and chat: the 20 ids first, then one nested query of
    /// them (what a user does today; `with` before a filter would resolve every message).
    static func newestNested(after date: Date, in context: Context) -> [W3Message] {
        let ids = newest(after: date, in: context)
        return W3Message.query(ids, in: context).with(\.$author).with(\.$chat).resolve()
    }
}
