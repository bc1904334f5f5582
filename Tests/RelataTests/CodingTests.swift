import Foundation
import Relata
import Testing

@Suite("Coding")
struct CodingTests {
    func encode<T: Encodable>(_ value: T, _ strategy: RelationEncodingStrategy) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.relationEncodingStrategy = strategy
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func decode<T: Decodable>(_ type: T.Type, _ text: String, _ strategy: RelationDecodingStrategy) throws -> T {
        let decoder = JSONDecoder()
        decoder.relationDecodingStrategy = strategy
        return try decoder.decode(type, from: Data(text.utf8))
    }

    @Test("The keyed shape keeps .none, .null, ids, entities, fragments and appending apart")
    func keyedRoundTrip() throws {
        let values: [Message] = [
            Message(id: "1", text: "a"),
            Message(id: "2", text: "b", author: .id("u"), attachment: .null, replies: .appending(ids: ["x"])),
            Message(id: "3", text: "c", chat: .fragment(Chat(id: "c")), viewedBy: .relation([.bob])),
            Message(id: "4", text: "d", replies: .appending(fragment: [Message(id: "5", text: "e")])),
        ]
        for value in values {
            let decoded = try decode(Message.self, try encode(value, .keyed), .keyed)
            #expect(decoded == value)
        }
        #expect(try encode(values[1], .keyed).contains(#""attachment":{"null":true}"#))
    }

    @Test("The plain shape: entities inline, ids as {\"id\"}, missing as null")
    func plainShape() throws {
        let message = Message(id: "1", text: "a", author: .id("u"), viewedBy: .relation([.bob]))
        let text = try encode(message, .plain)
        #expect(text.contains(#""author":{"id":"u"}"#))
        #expect(text.contains(#""chat":null"#))
        #expect(text.contains(#""viewedBy":[{"adminOf":null,"chats":null,"id":"1","name":"Bob"}]"#))
        let decoded = try decode(Message.self, text, .plain)
        #expect(decoded.$author.id == "u")
        #expect(decoded.$chat.isNone)
        #expect(decoded.viewedBy?.map(\.name) == ["Bob"])
    }

    @Test("Missing relation keys decode as .none; a to-one with two ids is rejected")
    func missingAndInvalid() throws {
        let message = try decode(Message.self, #"{"id":"1","text":"a"}"#, .plain)
        #expect(message.$chat.isNone && message.$replies.isNone)
        #expect(throws: DecodingError.self) {
            try decode(Message.self, #"{"id":"1","text":"a","chat":{"ids":["a","b"]}}"#, .keyed)
        }
        #expect(throws: DecodingError.self) {
            try decode(Message.self, #"{"id":"1","text":"a","author":{"null":true}}"#, .keyed)
        }
    }

    @Test("Decoding a backend payload then saving reproduces the graph")
    func decodeThenSave() throws {
        let payload = """
            {"id": "c", "users": [{"id": "1", "name": "Bob"}, {"id": "2", "name": "Alice"}],
             "messages": [{"id": "m", "text": "hi", "author": {"id": "1"}, "replies": [{"id": "r", "text": "yo"}]}],
             "admins": [{"id": "2"}]}
            """
        var context = Context()
        try decode(Chat.self, payload, .plain).save(to: &context)
        let chat = try #require(Chat.query("c", in: context)
            .with(\.$users).with(\.$messages) { $0.id(\.$author).with(\.$replies) }.id(\.$admins).resolve())
        let encoder = JSONEncoder()
        encoder.relationEncodingStrategy = .plain
        let again = try JSONDecoder().decode(AnyJSON.self, from: try encoder.encode(chat))
        let original = try JSONDecoder().decode(AnyJSON.self, from: Data(payload.utf8))
        #expect(again.withoutNulls == original.withoutNulls)
        #expect(ids(context, "r", \Message.$replyTo) == ["m"])
    }

    @Test("Snapshot of a whole context survives encoding as keyed JSON")
    func keyedContextRoundTrip() throws {
        var context = Context()
        try Chat(id: "c", users: .relation([.bob]), messages: .ids(["m"])).save(to: &context)
        let resolved = Chat.query("c", in: context).with(\.$users).id(\.$messages).resolve()
        let data = try JSONEncoder().encode(resolved)
        var other = Context()
        try JSONDecoder().decode(Chat.self, from: data).save(to: &other)
        #expect(ids(other, "c", \Chat.$users) == ["1"])
        #expect(ids(other, "m", \Message.$chat) == ["c"])
        #expect(other.entity(User.self, id: "1")?.name == "Bob")
    }
}

/// A JSON value, to compare documents structurally.
enum AnyJSON: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([AnyJSON]), object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([AnyJSON].self) { self = .array(value) }
        else { self = .object(try container.decode([String: AnyJSON].self)) }
    }

    /// The same document with every `null` member removed.
    var withoutNulls: AnyJSON {
        switch self {
        case .array(let values): .array(values.map(\.withoutNulls))
        case .object(let members): .object(members.filter { $0.value != .null }.mapValues(\.withoutNulls))
        default: self
        }
    }
}
