import Foundation
import Relata

extension StoreConformance {
    static let fetchChecks: [Check] = [
        Check(name: "Every kind of stored property round-trips exactly (dates compare equal, extremes kept, nil stays nil)") { storage in
            let samples = [
                Sample(
                    id: "a", small: .min, huge: .max, count: .min, ratio: -0.1, single: .pi, flag: true, text: "é ü 💬 \u{0}",
                    date: Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_7), uuid: UUID(),
                    url: URL(string: "https://example.com/a?b=c#d")!, bytes: Data([0, 1, 255]), mood: .loud, level: .high,
                    note: "", when: Date(), place: Sample.Place(name: "P", point: [1.5, -2]),
                    places: ["k": Sample.Place(name: "Q", point: [])], list: [3, 1, 2]
                ),
                Sample(
                    id: "b", small: .max, huge: 0, count: .max, ratio: .greatestFiniteMagnitude, single: -0, flag: false, text: "",
                    date: .distantPast, uuid: UUID(), url: URL(string: "file:///tmp/x%20y")!, bytes: Data(), mood: .calm,
                    level: nil, note: nil, when: nil, place: Sample.Place(name: "", point: []), places: nil, list: []
                ),
            ]
            let store = try await Store(backend: try storage(), schema: EntitySchema(Sample.self))
            try await store.write { context in for sample in samples { try sample.save(to: &context) } }
            try await store.close()
            let reopened = try await Store(backend: try storage(), schema: EntitySchema(Sample.self))
            for sample in samples {
                let read = try await reopened.read { $0.entity(Sample.self, id: sample.id) }
                try expect(read == sample, "\(sample.id) round-trips: \(String(describing: read))")
            }
            try await reopened.close()
        },
        Check(name: "Batched fetches return exactly the rows a full load holds, and nothing for keys that are not stored") { storage in
            let store = try await open(storage)
            try await store.write { try saveTeamWithDynamicLinks(&$0) }
            try await store.write { context in
                try Post.delete(id: "p3", from: &context)
                try Team(id: "t").move("p2", in: \.$posts, to: 0, in: &context)
            }
            try await store.close()
            let backend = try storage()
            defer { try? backend.close() }
            var entities: [EntityRecord] = [], links: [LinkRecord] = [], dynamicLinks: [DynamicLinkRecord] = []
            try backend.load(entities: { entities.append($0) }, links: { links.append($0) }, dynamicLinks: { dynamicLinks.append($0) })
            try expect(!entities.isEmpty && !links.isEmpty && !dynamicLinks.isEmpty, "the store holds entities, links and dynamic links")
            let absentEntity = EntityKey(type: entities[0].type, id: "not stored")
            let absentSource = LinkSourceKey(type: links[0].type, relation: links[0].relation, source: "not stored")
            let absentDynamic = DynamicLinkRecord(kind: "owns", sourceType: dynamicLinks[0].sourceType, source: "not stored", targetType: dynamicLinks[0].targetType, target: "b")
            let sources = Set(links.map { LinkSourceKey(type: $0.type, relation: $0.relation, source: $0.source) })
            try backend.read { reader in
                let fetched = try reader.fetchEntities(entities.map { EntityKey(type: $0.type, id: $0.id) } + [absentEntity])
                try expect(Set(fetched) == Set(entities) && fetched.count == entities.count, "fetchEntities returns every stored entity row once, as loaded, and no row for a key not stored")
                let fetchedLinks = try reader.fetchLinks(of: Array(sources) + [absentSource])
                try expect(Set(fetchedLinks) == Set(links) && fetchedLinks.count == links.count, "fetchLinks returns every link row of the sources once, as loaded")
                for source in sources {
                    let one = try reader.fetchLinks(of: [source])
                    try expect(Set(one) == Set(links.filter { $0.type == source.type && $0.relation == source.relation && $0.source == source.source }), "fetchLinks of \(source.type).\(source.relation) of \(source.source) alone")
                }
                for source in sources {
                    let list = try reader.fetchLinks(of: [source])
                    try expect(list == list.sorted(by: LinkRecord.positionOrder), "the links of \(source.type).\(source.relation) of \(source.source) in position order: \(list.map(\.target))")
                }
                let pages: [ListPage] = [.first(0), .first(1), .first(2), .first(100), .last(0), .last(1), .last(2), .last(100), .range(1..<3), .range(-2..<1), .range(50..<60)]
                for source in sources {
                    let list = try reader.fetchLinks(of: [source])
                    for page in pages {
                        let read = try reader.fetchLinks(of: source, page: page)
                        try expect(read == Array(page.slice(list)), "fetchLinks(of:page: \(page)) of \(source.type).\(source.relation) of \(source.source) is that page of its list: \(read.map(\.target)) against \(list.map(\.target))")
                    }
                }
                try expect(try reader.fetchLinks(of: absentSource, page: .last(3)).isEmpty, "no page of a source without links")
                let lastLinks = try reader.fetchLastLinks(of: Array(sources) + [absentSource])
                var expectedLast: [LinkRecord] = []
                for source in sources { expectedLast += try reader.fetchLinks(of: [source]).suffix(1) }
                try expect(Set(lastLinks) == Set(expectedLast) && lastLinks.count == expectedLast.count, "fetchLastLinks gives the last link of each source's list in one batch, none for a source without links")
                let batch = Array(sources)
                let grouped = try reader.fetchLinks(of: batch)
                var seen: [LinkSourceKey] = []
                for link in grouped {
                    let key = LinkSourceKey(type: link.type, relation: link.relation, source: link.source)
                    if seen.last != key { seen.append(key) }
                }
                try expect(seen.count == Set(seen).count, "the links of one source come together in a batch")
                for type in Set(entities.map(\.type)) {
                    let expected = entities.filter { $0.type == type }.map(\.id).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                    var paged: [String] = [], after: String? = nil
                    while true {
                        let page = try reader.fetchEntities(of: type, after: after, limit: 2)
                        try expect(page.count <= 2, "a page holds at most its limit")
                        try expect(page.allSatisfy { record in entities.contains(record) }, "a page's rows are the stored rows")
                        guard let last = page.last else { break }
                        paged += page.map(\.id)
                        after = last.id
                    }
                    try expect(paged == expected, "pages of \(type) visit every id once, in byte order: \(paged) against \(expected)")
                }
                try expect(try reader.fetchEntities(of: "NoSuchType", after: nil, limit: 10).isEmpty, "no page of a type not stored")
                let counts = try reader.fetchLinkCounts(of: Array(sources) + [absentSource])
                let expectedCounts = Dictionary(grouping: links, by: { LinkSourceKey(type: $0.type, relation: $0.relation, source: $0.source) }).mapValues(\.count)
                try expect(counts == expectedCounts, "fetchLinkCounts counts every source's rows, and leaves out a source without rows: \(counts) against \(expectedCounts)")
                for type in Set(entities.map(\.type)) {
                    try expect(try reader.fetchEntityCount(of: type) == entities.count { $0.type == type && $0.hasEntity }, "fetchEntityCount of \(type) counts its entities, not the rows that only hold links")
                }
                try expect(try reader.fetchEntityCount(of: "NoSuchType") == 0, "no entity of a type not stored")
                // Sources of targets: every link by its stored side, to-one links from the entity rows.
                let stored = links + entities.flatMap { record in
                    record.toOne.map { LinkRecord(type: record.type, relation: $0.relation, source: record.id, target: $0.target, position: nil, inversePosition: $0.inversePosition) }
                }
                try expect(stored.contains { $0.position == nil } && stored.contains { $0.inversePosition != nil }, "the store holds to-one links and inverse positions")
                let byTarget = Dictionary(grouping: stored, by: { LinkTargetKey(type: $0.type, relation: $0.relation, target: $0.target) })
                for (target, expected) in byTarget {
                    let sources = try reader.fetchSources(of: [target])
                    try expect(sources == expected.sorted(by: LinkRecord.inverseOrder), "fetchSources of \(target.type).\(target.relation) to \(target.target): \(sources.map(\.source)) against \(expected.map(\.source))")
                }
                for (target, expected) in byTarget {
                    let list = expected.sorted(by: LinkRecord.inverseOrder)
                    for page in pages {
                        let read = try reader.fetchSources(of: target, page: page)
                        try expect(read == Array(page.slice(list)), "fetchSources(of:page: \(page)) of \(target.type).\(target.relation) to \(target.target) is that page of them: \(read.map(\.source)) against \(list.map(\.source))")
                    }
                }
                let absentTarget = LinkTargetKey(type: stored[0].type, relation: stored[0].relation, target: "not stored")
                let allSources = try reader.fetchSources(of: Array(byTarget.keys) + [absentTarget])
                try expect(Set(allSources) == Set(stored) && allSources.count == stored.count, "fetchSources of every target returns every link once")
                var seenTargets: [LinkTargetKey] = []
                for link in allSources {
                    let key = LinkTargetKey(type: link.type, relation: link.relation, target: link.target)
                    if seenTargets.last != key { seenTargets.append(key) }
                }
                try expect(seenTargets.count == Set(seenTargets).count, "the sources of one target come together in a batch")
                let sourceCounts = try reader.fetchSourceCounts(of: Array(byTarget.keys) + [absentTarget])
                try expect(sourceCounts == byTarget.mapValues(\.count), "fetchSourceCounts counts every target's sources, and leaves out a target without any")
                try expect(try reader.fetchSources(of: absentTarget, page: .first(5)).isEmpty, "no page of a target without links")
                let lastSources = try reader.fetchLastSources(of: Array(byTarget.keys) + [absentTarget])
                let expectedLastSources = byTarget.values.compactMap { $0.sorted(by: LinkRecord.inverseOrder).last }
                try expect(Set(lastSources) == Set(expectedLastSources) && lastSources.count == expectedLastSources.count, "fetchLastSources gives the last source of each target's list in one batch, none for a target without links")
                try expect(try reader.fetchSources(of: []).isEmpty && reader.fetchSourceCounts(of: []).isEmpty, "an empty batch of targets fetches nothing")
                // Links with the rows at their other end: what the plain fetches give, in one batch.
                func rows(_ type: String, _ ids: [String]) -> Set<EntityRecord> {
                    Set(entities.filter { $0.type == type && ids.contains($0.id) })
                }
                let targetKeys = Array(byTarget.keys) + [absentTarget]
                let withSources = try reader.fetchSourcesAndRows(of: targetKeys)
                try expect(withSources.links == (try reader.fetchSources(of: targetKeys)), "fetchSourcesAndRows returns the links fetchSources returns, in its order")
                var expectedSourceRows = Set<EntityRecord>()
                for (target, found) in byTarget { expectedSourceRows.formUnion(rows(target.type, found.map(\.source))) }
                try expect(Set(withSources.entities) == expectedSourceRows && withSources.entities.count == expectedSourceRows.count, "fetchSourcesAndRows returns each source's stored row once")
                let linkSources = Array(sources) + [absentSource]
                for type in Set(entities.map(\.type)) {
                    let withTargets = try reader.fetchLinksAndRows(of: linkSources, targetType: type)
                    try expect(withTargets.links == (try reader.fetchLinks(of: linkSources)), "fetchLinksAndRows returns the links fetchLinks returns, in its order")
                    let expectedRows = rows(type, links.map(\.target))
                    try expect(Set(withTargets.entities) == expectedRows && withTargets.entities.count == expectedRows.count, "fetchLinksAndRows returns each target's stored row of \(type) once")
                }
                try expect(try reader.fetchSourcesAndRows(of: []) == LinkedRows(links: [], entities: []), "an empty batch of targets fetches no rows")
                let ends = Set(dynamicLinks.flatMap { [EntityKey(type: $0.sourceType, id: $0.source), EntityKey(type: $0.targetType, id: $0.target)] })
                for end in ends {
                    let touching = try reader.fetchDynamicLinks(of: [end])
                    let expected = dynamicLinks.filter { EntityKey(type: $0.sourceType, id: $0.source) == end || EntityKey(type: $0.targetType, id: $0.target) == end }
                    try expect(Set(touching) == Set(expected) && touching.count == expected.count, "fetchDynamicLinks of \(end.type) \(end.id): either end")
                }
                let allDynamic = try reader.fetchDynamicLinks(of: Array(ends) + [absentEntity])
                try expect(Set(allDynamic) == Set(dynamicLinks) && allDynamic.count == dynamicLinks.count, "fetchDynamicLinks of every end returns each link once")
                try expect(try reader.fetchDynamicLinks(of: []).isEmpty, "an empty batch of ends fetches nothing")
                try expect(try reader.holdsDynamicLinks(), "holdsDynamicLinks is true where dynamic relationships are stored")
                let fetchedDynamic = try reader.fetchDynamicLinks(dynamicLinks + [absentDynamic])
                try expect(Set(fetchedDynamic) == Set(dynamicLinks) && fetchedDynamic.count == dynamicLinks.count, "fetchDynamicLinks returns the stored ones only")
                try expect(try reader.fetchEntities([]).isEmpty && reader.fetchLinks(of: []).isEmpty && reader.fetchDynamicLinks([]).isEmpty, "empty batches fetch nothing")
                let bounds = try reader.logBounds()
                try expect(bounds.last >= 2 && bounds.pruned < bounds.last, "the log's bounds: \(bounds)")
                let entries = try reader.logEntries(after: bounds.last - 1)
                try expect(entries.map(\.sequence) == [bounds.last] && entries[0].origin != nil && entries[0].record != nil, "the newest log entry, readable")
            }
        },
    ]
}
