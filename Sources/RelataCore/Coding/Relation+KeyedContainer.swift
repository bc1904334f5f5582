import Foundation

/// SwiftletModel's keyed container shapes (``RelationEncodingStrategy/keyedContainer`` and
/// ``RelationEncodingStrategy/explicitKeyedContainer``): a relation is a one-key object.
extension Relation {
    enum ContainerKey: String, CodingKey, CaseIterable {
        case id, object, ids, objects
        case sliceIDs = "slice_ids"
        case slice
    }

    func encodeContainer(to encoder: any Encoder, explicit: Bool) throws {
        // `.none` never gets here: `encode(to:)` writes it as null for every shape.
        var container = encoder.container(keyedBy: ContainerKey.self)
        switch state {
        case .none:
            break
        case .null:
            // A to-one null is SwiftletModel's `{"id": null}`; a to-many one, no ids.
            if Self.isToMany { try container.encode([Entity.ID](), forKey: .ids) } else { try container.encodeNil(forKey: .id) }
        case let .id(id):
            if Self.isToMany { try container.encode([id], forKey: .ids) } else { try container.encode(id, forKey: .id) }
        case let .ids(ids, appending):
            if !Self.isToMany {
                if let id = ids.first { try container.encode(id, forKey: .id) } else { try container.encodeNil(forKey: .id) }
            } else {
                try container.encode(ids, forKey: explicit && appending ? .sliceIDs : .ids)
            }
        case let .entities(entities, _, appending):
            if !Self.isToMany {
                if let entity = entities.first { try container.encode(entity, forKey: .object) } else { try container.encodeNil(forKey: .object) }
            } else {
                try container.encode(entities, forKey: explicit && appending ? .slice : .objects)
            }
        }
    }

    /// Reads the container shape; an object with none of its keys (or an empty one) is `.none`.
    /// Throws when the value is not an object, so that the next shape of the strategy is tried.
    static func containerState(from decoder: any Decoder, explicit: Bool) throws -> State {
        let container = try decoder.container(keyedBy: ContainerKey.self)
        let keys: [ContainerKey] = explicit ? ContainerKey.allCases : [.id, .object, .ids, .objects]
        guard let key = keys.first(where: container.contains) else { return .none }
        let state: State
        switch key {
        case .id:
            state = try container.decode(Entity.ID?.self, forKey: .id).map { .id($0) } ?? .null
        case .object:
            state = try container.decode(Entity?.self, forKey: .object).map { .entities([$0], fragment: false, appending: false) } ?? .null
        case .ids:
            state = .ids(try container.decode([Entity.ID].self, forKey: .ids), appending: false)
        case .objects:
            state = .entities(try container.decode([Entity].self, forKey: .objects), fragment: false, appending: false)
        case .sliceIDs:
            state = .ids(try container.decode([Entity.ID].self, forKey: .sliceIDs), appending: true)
        case .slice:
            state = .entities(try container.decode([Entity].self, forKey: .slice), fragment: false, appending: true)
        }
        try validate(state, appending: key == .sliceIDs || key == .slice, at: decoder.codingPath)
        return state
    }
}
