import Foundation

/// W3's floor in memory: the answers computed by hand over plain Swift arrays, each index kept
/// sorted (or hashed) as a hand-written app would keep it.
struct W3Floor {
    var userIDs: [String] = [], names: [String] = [], ages: [Int] = []
    var byEmail: [String: Int] = [:]
    /// User numbers sorted by (age, id).
    var byAge: [Int] = []
    var messageIDs: [String] = [], texts: [String] = [], sentAt: [Double] = [], authors: [Int] = [], chats: [String] = []
    /// Message numbers sorted by (sentAt, id).
    var bySentAt: [Int] = []
    var unreadMessages: [Int] = []
    /// Trigram → (message number → occurrences), and each message's trigram count.
    var postings: [String: [Int: Int]] = [:]
    var lengths: [Int] = []
    var totalLength = 0

    init(_ data: W3Data) {
        var userNumber: [String: Int] = [:]
        for i in 0..<data.userCount {
            let user = data.user(i)
            userNumber[user.id] = i
            userIDs.append(user.id); names.append(user.name); ages.append(user.age)
            byEmail[user.email] = i
        }
        byAge = Array(0..<data.userCount).sorted { (ages[$0], userIDs[$0]) < (ages[$1], userIDs[$1]) }
        for j in 0..<data.messageCount {
            let message = data.message(j)
            messageIDs.append(message.id); texts.append(message.text); sentAt.append(message.sentAt.timeIntervalSince1970)
            authors.append(userNumber[W3Data.author(j, chatCount: data.chatCount, userCount: data.userCount)]!)
            chats.append("c\(j % data.chatCount)")
            if !message.isRead { unreadMessages.append(j) }
            let tokens = W3Floor.tokens(message.text)
            for token in tokens { postings[token, default: [:]][j, default: 0] += 1 }
            lengths.append(tokens.count)
            totalLength += tokens.count
        }
        bySentAt = Array(0..<data.messageCount).sorted { (sentAt[$0], messageIDs[$0]) < (sentAt[$1], messageIDs[$1]) }
    }

    func user(email: String) -> String? { byEmail[email].map { userIDs[$0] } }

    /// Adds `message` (by user `author`, in `chat`) to every array and index, as a hand-written
    /// app saving it would: Q8's write.
    mutating func insert(_ message: W3Message, author: Int, chat: String) {
        let number = messageIDs.count
        messageIDs.append(message.id); texts.append(message.text); sentAt.append(message.sentAt.timeIntervalSince1970)
        authors.append(author); chats.append(chat)
        if !message.isRead { unreadMessages.append(number) }
        let tokens = W3Floor.tokens(message.text)
        for token in tokens { postings[token, default: [:]][number, default: 0] += 1 }
        lengths.append(tokens.count)
        totalLength += tokens.count
        let place = partition(bySentAt) { (sentAt[$0], messageIDs[$0]) > (sentAt[number], message.id) }
        bySentAt.insert(number, at: place)
    }

    func newest(after date: Date) -> [Int] {
        let bound = date.timeIntervalSince1970
        let first = partition(bySentAt) { sentAt[$0] > bound }
        return bySentAt[first...].suffix(20).reversed()
    }

    var unread: Int { unreadMessages.count }

    func agedPage() -> [String] {
        let low = partition(byAge) { ages[$0] >= W3Data.ages.lowerBound }
        let high = partition(byAge) { ages[$0] > W3Data.ages.upperBound }
        let page = byAge[low..<high].sorted { (names[$0], userIDs[$0]) < (names[$1], userIDs[$1]) }
        return page.dropFirst(W3Data.page.offset).prefix(W3Data.page.limit).map { userIDs[$0] }
    }

    /// The 20 best matches by BM25 over trigrams (SwiftletModel's ranking), ties by id.
    func search(_ words: String) -> [String] {
        var scores: [Int: Double] = [:]
        let documents = Double(lengths.count), average = Double(totalLength) / max(1, documents)
        for token in W3Floor.tokens(words) {
            guard let matching = postings[token] else { continue }
            let idf = log((documents - Double(matching.count) + 0.5) / (Double(matching.count) + 0.5) + 1)
            for (document, frequency) in matching {
                let tf = Double(frequency)
                scores[document, default: 0] += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * Double(lengths[document]) / average))
            }
        }
        return scores.sorted { ($1.value, messageIDs[$0.key]) < ($0.value, messageIDs[$1.key]) }.prefix(20).map { messageIDs[$0.key] }
    }

    func scan(_ text: String) -> [String] {
        texts.indices.filter { texts[$0].contains(text) }.map { messageIDs[$0] }.sorted()
    }

    /// Q7: each of Q2's messages with its author's name and its chat.
    func newestNested(after date: Date) -> [(String, String, String)] {
        newest(after: date).map { (messageIDs[$0], names[authors[$0]], chats[$0]) }
    }

    /// SwiftletModel's tokens: the trigrams of each lowercased alphanumeric word.
    static func tokens(_ text: String) -> [String] {
        text.lowercased().components(separatedBy: CharacterSet.alphanumerics.inverted).flatMap { word -> [String] in
            let characters = Array(word)
            guard characters.count >= 3 else { return [] }
            return (0...(characters.count - 3)).map { String(characters[$0..<($0 + 3)]) }
        }
    }

    /// The first index of `sorted` whose element satisfies `isAfter` (false, then true).
    private func partition(_ sorted: [Int], _ isAfter: (Int) -> Bool) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(sorted[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
