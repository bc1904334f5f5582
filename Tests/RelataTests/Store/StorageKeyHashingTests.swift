import Relata
import RelataCore
import Testing

/// The keys of stored rows hash by id (and the other fields' lengths): keys that differ only in
/// their type or relation are still told apart, and equal keys find each other.
@Suite("Storage keys: hashing")
struct StorageKeyHashingTests {
    @Test("Entity keys of one id in two types of one name length are two keys; equal keys are one")
    func entityKeys() {
        let keys: Set = [EntityKey(type: "Chat", id: "x"), EntityKey(type: "User", id: "x"), EntityKey(type: "Chat", id: "x")]
        #expect(keys.count == 2)
        #expect(keys.contains(EntityKey(type: "User", id: "x")))
        #expect(!keys.contains(EntityKey(type: "Note", id: "x")))
        #expect(EntityKey(type: "Chat", id: "x").hashValue == EntityKey(type: "Chat", id: "x").hashValue)
    }

    @Test("Link keys of one id through two relations of one name length are two keys")
    func linkKeys() {
        var sources: [LinkSourceKey: Int] = [:]
        sources[LinkSourceKey(type: "Chat", relation: "users", source: "c")] = 1
        sources[LinkSourceKey(type: "Chat", relation: "admin", source: "c")] = 2
        #expect(sources[LinkSourceKey(type: "Chat", relation: "users", source: "c")] == 1)
        #expect(sources[LinkSourceKey(type: "Chat", relation: "admin", source: "c")] == 2)
        var targets: [LinkTargetKey: Int] = [:]
        targets[LinkTargetKey(type: "Message", relation: "replyTo", target: "m")] = 1
        targets[LinkTargetKey(type: "Message", relation: "message", target: "m")] = 2
        #expect(targets.count == 2)
        #expect(targets[LinkTargetKey(type: "Message", relation: "replyTo", target: "m")] == 1)
        #expect(targets[LinkTargetKey(type: "Message", relation: "message", target: "m")] == 2)
    }
}
