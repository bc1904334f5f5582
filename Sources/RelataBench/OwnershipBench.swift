import Relata

/// An owner of items (`.cascadeOrphans`): the ownership workload of issue 5.
@EntityModel
struct BenchOwner: Codable {
    let id: Int
    @Relationship(deleteRule: .cascadeOrphans) var items: [BenchItem]? = nil
}

@EntityModel
struct BenchItem: Codable {
    let id: Int
    var payload: String
}

/// 10,000 owners and 100,000 owned items with 1–3 owners each; erase every owner.
enum OwnershipBench {
    struct Result {
        let build: Duration
        let erase: Duration
        let erased: Int
        let left: Int
    }

    /// - Parameter dynamic: Own through dynamic `owns` relationships instead of the declared relation.
    static func run(owners: Int = 10_000, items: Int = 100_000, seed: UInt64 = 5, dynamic: Bool = false) throws -> Result {
        var generator = SplitMix(seed: seed)
        var owned = [[Int]](repeating: [], count: owners)
        for item in 0..<items {
            let count = Int.random(in: 1...3, using: &generator)
            for _ in 0..<count { owned[Int.random(in: 0..<owners, using: &generator)].append(item) }
        }
        var context = Context()
        var start = ContinuousClock.now
        for item in 0..<items { try BenchItem(id: item, payload: "item \(item)").save(to: &context) }
        for (owner, items) in owned.enumerated() {
            if dynamic {
                let owner = BenchOwner(id: owner)
                try owner.save(to: &context)
                for item in items { try context.relate(owner.reference, .owns, EntityReference(BenchItem.self, id: item)) }
            } else {
                try BenchOwner(id: owner, items: .ids(items)).save(to: &context)
            }
        }
        let build = ContinuousClock.now - start
        let before = context.count(of: BenchItem.self)
        start = ContinuousClock.now
        for owner in 0..<owners { try BenchOwner.delete(id: owner, from: &context) }
        let erase = ContinuousClock.now - start
        let left = context.count(of: BenchItem.self)
        return Result(build: build, erase: erase, erased: before - left + owners, left: left + context.count(of: BenchOwner.self))
    }
}
