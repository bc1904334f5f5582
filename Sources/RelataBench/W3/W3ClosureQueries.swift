import Foundation
import Relata

/// W3's queries as a user wrote them before Relata had predicates, sorts and limits — the API of
/// SwiftletModel's 2024 README: a closure `filter` and `sorted`, which run in Swift over every
/// entity of the type, and `prefix` for a page (`relata-bench --w3 --w3-closures`: the "before"
/// column). Q5 has none: there was no full-text search.
enum W3ClosureQueries: W3QueryForm {
    /// Q1: the user with this e-mail.
    static func user(email: String, in context: Context) -> String? {
        W3User.query(in: context).filter { $0.email == email }.resolve().first?.id
    }

    /// Q2: the 20 newest messages sent after `date`, newest first.
    static func newest(after date: Date, in context: Context) -> [String] {
        Array(W3Message.query(in: context).filter { $0.sentAt > date }.sorted { $0.sentAt > $1.sentAt }.resolve().prefix(20).map(\.id))
    }

    /// Q3: the number of unread messages.
    static func unread(in context: Context) -> Int {
        W3Message.query(in: context).filter { !$0.isRead }.resolve().count
    }

    /// Q4: users aged 30…39 sorted by name (then id), the third page of 50.
    static func agedPage(in context: Context) -> [String] {
        let page = W3Data.page
        let users = W3User.query(in: context)
            .filter { W3Data.ages.contains($0.age) }
            .sorted { ($0.name, $0.id) < ($1.name, $1.id) }
            .resolve()
        return Array(users.dropFirst(page.offset).prefix(page.limit).map(\.id))
    }

    /// Q5: none before (there was no full-text search); not measured with `--w3-closures`.
    static func search(_ words: String, in context: Context) -> [String] {
        W3Queries.search(words, in: context)
    }

    /// Q6: messages whose text contains `text`, by id.
    static func scan(_ text: String, in context: Context) -> [String] {
        W3Message.query(in: context).filter { $0.text.contains(text) }.sorted { $0.id < $1.id }.resolve().map(\.id)
    }

    /// Q7: Q2 with each message's author and chat.
    static func newestNested(after date: Date, in context: Context) -> [W3Message] {
        W3Message.query(newest(after: date, in: context), in: context).with(\.$author).with(\.$chat).resolve()
    }
}
