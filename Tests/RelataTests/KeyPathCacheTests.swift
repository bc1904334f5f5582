import ChatExample
import Relata
@testable import RelataCore
import Testing

@Suite("Key path caches")
struct KeyPathCacheTests {
    @Test("Each key path finds its own relation, first time and cached")
    func lookups() throws {
        var context = Context()
        try Chat(id: "c", users: .relation([.bob]), admins: .relation([.alice])).save(to: &context)
        for _ in 0..<3 {
            #expect(User.query("1", in: context).related(\.$chats).ids == ["c"])
            #expect(User.query("1", in: context).related(\.$adminOf).ids == [])
            #expect(User.query("2", in: context).related(\.$adminOf).ids == ["c"])
            #expect(context.count(of: "c", \Chat.$users) == 1)
            #expect(context.count(of: "c", \Chat.$admins) == 1)
        }
    }

    @Test("Key paths built at run time do not grow the cache without bound")
    func runtimeKeyPaths() {
        let key = _AnyRelationKey(ordinal: 0, name: "test", toMany: false)
        var lookups = 0
        for _ in 0..<(KeyPathCaches.relationKeys.limit * 2) {
            // A key path into a generic type is a new object each time it is made.
            let built = countPath(Int.self)
            #expect(KeyPathCaches.relationKeys.value(for: built) { lookups += 1; return key }.name.description == "test")
        }
        #expect(lookups == KeyPathCaches.relationKeys.limit * 2, "each new key path object is looked up once")
        #expect(KeyPathCaches.relationKeys.count <= KeyPathCaches.relationKeys.limit)
    }
}

private func countPath<Element>(_: Element.Type) -> AnyKeyPath {
    \[Element].count
}
