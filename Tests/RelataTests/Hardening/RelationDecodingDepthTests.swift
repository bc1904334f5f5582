import Foundation
import Relata
@testable import RelataCore
import Testing

/// Decoding a relation reads each level of a nested payload once, whatever the strategy: with
/// several shapes (as the guide recommends), trying each in turn over the same subtree made a
/// payload nested d levels cost 2^d reads when it fails at the bottom.
@Suite("Hardening: relation decoding is linear")
struct RelationDecodingDepthTests {
    /// `depth` nodes, each holding the next as its one child, in SwiftletModel's container shape
    /// (or the plain shape); the innermost has `innermost` as its id.
    static func nested(_ depth: Int, innermost: String, plain: Bool) -> String {
        var json = #"{"id": \#(innermost)}"#
        for level in stride(from: depth - 1, through: 0, by: -1) {
            json = plain ? #"{"id": "n\#(level)", "children": [\#(json)]}"# : #"{"id": "n\#(level)", "children": {"objects": [\#(json)]}}"#
        }
        return json
    }

    static func decode(_ json: String, strategy: RelationDecodingStrategy) -> (Result<Node, any Error>, attempts: Int) {
        let counter = ShapeAttemptCounter()
        let decoder = JSONDecoder()
        decoder.relationDecodingStrategy = strategy
        decoder.userInfo[.relataShapeAttempts] = counter
        let result = Result { try decoder.decode(Node.self, from: Data(json.utf8)) }
        return (result, counter.value)
    }

    @Test("40 levels with a bad id at the bottom fail after one read per level, with every shape in the strategy")
    func deepFailureIsLinear() {
        for plain in [false, true] {
            let json = Self.nested(40, innermost: "5", plain: plain)
            let (result, attempts) = Self.decode(json, strategy: [.explicitKeyedContainer, .keyedContainer, .plain, .keyed])
            #expect(throws: DecodingError.self) { try result.get() }
            #expect(attempts == 40, "one shape read per level, not 2^40 (plain: \(plain))")
        }
    }

    @Test("40 levels decode in one read per level, in the container and plain shapes")
    func deepSuccess() throws {
        for plain in [false, true] {
            let json = Self.nested(40, innermost: #""n40""#, plain: plain)
            let (result, attempts) = Self.decode(json, strategy: [.explicitKeyedContainer, .keyedContainer, .plain])
            var node = try result.get()
            var depth = 0
            while case let .entities(children, _, _) = node.$children.state, let child = children.first {
                node = child
                depth += 1
            }
            if plain {
                // In the plain shape an object with only an id is a reference: the innermost node.
                guard case let .ids(ids, _) = node.$children.state else { Issue.record("\(node.$children.state)"); continue }
                #expect(depth == 39 && ids == ["n40"])
            } else {
                #expect(depth == 40 && node.id == "n40", "depth \(depth), \(node.$children.state)")
            }
            #expect(attempts == 40, "one read per level (the innermost has no children key)")
        }
    }
}
