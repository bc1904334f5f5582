import Foundation
@testable import RelataCore

extension InMemoryBackend {
    /// A backend holding one message row whose payload does not decode, under `id`: a read of it
    /// fails with `undecodableRecord`.
    static func holdingUndecodableMessage(_ id: String) throws -> InMemoryBackend {
        let backend = InMemoryBackend()
        var rows = StoreChanges()
        rows.upsertedEntities = [EntityRecord(type: Message.storedTypeName, id: id, payload: Data([0x00, 0x01, 0xFF]))]
        try backend.persist(rows)
        return backend
    }
}
