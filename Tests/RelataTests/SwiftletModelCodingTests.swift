import Foundation
import Relata
import Testing

/// SwiftletModel's JSON shapes, written the way SwiftletModel's own tests write them: encode with
/// `JSONEncoder.prettyPrinting` and a `relationEncodingStrategy`, compare with the exact text,
/// decode with a `relationDecodingStrategy` set.
@Suite("SwiftletModel coding compatibility")
struct SwiftletModelCodingTests {
    static func encoded<T: Encodable>(_ value: T, _ strategy: RelationEncodingStrategy) -> String {
        let encoder = JSONEncoder.prettyPrinting
        encoder.relationEncodingStrategy = strategy
        return value.prettyDescription(with: encoder) ?? ""
    }

    static func decoded<T: Decodable>(_ type: T.Type, _ text: String, _ strategy: RelationDecodingStrategy) throws -> T {
        let decoder = JSONDecoder()
        decoder.relationDecodingStrategy = strategy
        return try decoder.decode(type, from: Data(text.utf8))
    }

    /// One message with every kind of relation value: an id, an entity, null, ids, entities.
    static let message = Message(
        id: "1", text: "hello", author: .id("u"), chat: .relation(Chat(id: "c")), attachment: .null,
        replies: .ids(["2", "3"]), viewedBy: .relation([User.bob])
    )

    // The fixtures: SwiftletModel's shapes, byte for byte (pretty-printed, keys sorted).
    static let keyedContainerFixture = """
        {
          "attachment" : {
            "id" : null
          },
          "author" : {
            "id" : "u"
          },
          "chat" : {
            "object" : {
              "admins" : null,
              "id" : "c",
              "messages" : null,
              "users" : null
            }
          },
          "id" : "1",
          "replies" : {
            "ids" : [
              "2",
              "3"
            ]
          },
          "replyTo" : null,
          "text" : "hello",
          "viewedBy" : {
            "objects" : [
              {
                "adminOf" : null,
                "chats" : null,
                "id" : "1",
                "name" : "Bob"
              }
            ]
          }
        }
        """

    static let sliceFixture = """
        {
          "attachment" : null,
          "author" : null,
          "chat" : null,
          "id" : "1",
          "replies" : {
            "slice_ids" : [
              "2"
            ]
          },
          "replyTo" : null,
          "text" : "hello",
          "viewedBy" : {
            "slice" : [
              {
                "adminOf" : null,
                "chats" : null,
                "id" : "1",
                "name" : "Bob"
              }
            ]
          }
        }
        """

    @Test("keyedContainer: {\"id\"}, {\"object\"}, {\"ids\"}, {\"objects\"}, {\"id\": null} for null, null for .none — exact text")
    func keyedContainerShape() throws {
        #expect(Self.encoded(Self.message, .keyedContainer) == Self.keyedContainerFixture)
        // The explicit shape is the same when nothing is appending.
        #expect(Self.encoded(Self.message, .explicitKeyedContainer) == Self.keyedContainerFixture)
        let decoded = try Self.decoded(Message.self, Self.keyedContainerFixture, [.keyedContainer])
        #expect(decoded == Self.message)
    }

    @Test("explicitKeyedContainer: appending slices are {\"slice_ids\"} and {\"slice\"}, and decode as appending")
    func explicitSlices() throws {
        let message = Message(id: "1", text: "hello", replies: .appending(ids: ["2"]), viewedBy: .appending(relation: [User.bob]))
        #expect(Self.encoded(message, .explicitKeyedContainer) == Self.sliceFixture)
        let decoded = try Self.decoded(Message.self, Self.sliceFixture, [.explicitKeyedContainer])
        #expect(decoded.$replies.isAppending && decoded.$replies.ids == ["2"])
        #expect(decoded.$viewedBy.isAppending && decoded.viewedBy?.map(\.name) == ["Bob"])
        // Without the explicit shape a slice is not understood: the keyed container reads it as .none.
        let plainKeyed = try Self.decoded(Message.self, Self.sliceFixture, [.keyedContainer])
        #expect(plainKeyed.$replies.isNone && plainKeyed.$viewedBy.isNone)
        // keyedContainer writes an appending slice as a plain list (SwiftletModel does the same).
        #expect(Self.encoded(message, .keyedContainer).contains("\"ids\" : [\n      \"2\"\n    ]"))
    }

    @Test("A decoder with every shape tries explicit, then keyed, then plain: arrays and null fall through; unknown or empty objects are .none")
    func decodingOrder() throws {
        let all: RelationDecodingStrategy = [.explicitKeyedContainer, .keyedContainer, .plain]
        let text = #"{"id":"1","text":"a","replies":[{"id":"2"}],"viewedBy":[{"id":"1","name":"Bob"}],"chat":{"unknown":1},"attachment":{},"author":null}"#
        let message = try Self.decoded(Message.self, text, all)
        #expect(message.$replies.ids == ["2"], "a plain array of id objects")
        #expect(message.viewedBy?.map(\.name) == ["Bob"], "a plain array of entities")
        #expect(message.$chat.isNone && message.$attachment.isNone && message.$author.isNone)
        let nulled = try Self.decoded(Message.self, #"{"id":"1","text":"a","attachment":{"object":null},"replyTo":{"id":null}}"#, all)
        #expect(nulled.$attachment.isNull && nulled.$replyTo.isNull)
    }

    @Test("Container shapes reject what a relation cannot hold: two ids in a to-one, null in a required one")
    func invalidContainers() {
        #expect(throws: DecodingError.self) {
            try Self.decoded(Message.self, #"{"id":"1","text":"a","chat":{"ids":["a","b"]}}"#, [.keyedContainer])
        }
        #expect(throws: DecodingError.self) {
            try Self.decoded(Message.self, #"{"id":"1","text":"a","author":{"id":null}}"#, [.explicitKeyedContainer])
        }
    }

    @Test("prettyPrinting leaves slashes unescaped, as SwiftletModel's does")
    func prettyPrintingSlashes() {
        let attachment = Attachment(id: "a", kind: .file(url: URL(fileURLWithPath: "/files/a")))
        let text = attachment.prettyDescription(with: .prettyPrinting) ?? ""
        #expect(text.contains("file:///files/a"), "\(text)")
        #expect(!text.contains("\\/"))
    }

    @Test("Encoder and Decoder answer the strategy their userInfo holds; the default stays Relata's lossless keyed shape")
    func strategyAccessors() throws {
        struct Probe: Codable {
            var encoding: RelationEncodingStrategy?
            var decoding: RelationDecodingStrategy?
            init() {}
            init(from decoder: any Decoder) throws { decoding = decoder.relationDecodingStrategy }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(encoder.relationEncodingStrategy == .explicitKeyedContainer ? "explicit" : "other")
            }
        }
        let encoder = JSONEncoder()
        #expect(encoder.relationEncodingStrategy == .keyed)
        encoder.userInfo[RelationEncodingStrategy.userInfoKey] = RelationEncodingStrategy.explicitKeyedContainer
        #expect(String(decoding: try encoder.encode(Probe()), as: UTF8.self) == #""explicit""#)
        let decoder = JSONDecoder()
        #expect(decoder.relationDecodingStrategy == .keyed)
        decoder.relationDecodingStrategy = [.keyedContainer, .plain]
        #expect(try decoder.decode(Probe.self, from: Data("1".utf8)).decoding == [.keyedContainer, .plain])
    }
}
