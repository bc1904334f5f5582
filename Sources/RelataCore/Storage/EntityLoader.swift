import Foundation

/// Entity payloads decoded into the table of their type.
@usableFromInline
enum EntityLoader<Entity: EntityModelProtocol> {
    @inlinable
    static func decodeEntities(_ records: [EntityRecord]) throws -> @Sendable (inout Context) -> Void {
        let entities = try ParallelCoding.map(records, worker: { PayloadCoding.Decoders() }) { decoders, record in
            do {
                return (try PayloadCoding.decodeEntity(Entity.self, from: record, with: decoders), record.updatedAt)
            } catch {
                throw record.undecodable(error)
            }
        }
        return { context in
            let table = context.mutableTable(Entity.self)
            table.entities.reserveCapacity(table.entities.count + entities.count)
            table.memoryIndexes = nil
            // Made again in one pass once every entity is in (`remakeIndexes()`).
            table.saveOrder = nil
            for (entity, time) in entities {
                if let time {
                    _ = table.entities.store(entity, for: entity.id, savedAt: time)
                } else {
                    table.entities[entity.id] = entity
                }
            }
        }
    }
}
