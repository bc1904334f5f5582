import Relata

/// One entity of the ownership property test's pool.
enum PoolEntity: Hashable, CustomStringConvertible {
    case node(String), drawer(String), sheet(Int), account, invoice

    static let nodes = ["n0", "n1", "n2", "n3", "n4"].map(PoolEntity.node)
    static let owners: [PoolEntity] = nodes + [.drawer("d0"), .drawer("d1"), .sheet(0), .sheet(1), .sheet(2), .account]

    var reference: EntityReference {
        switch self {
        case .node(let id): Node(id: id).reference
        case .drawer(let id): Drawer(id: id).reference
        case .sheet(let id): Sheet(id: id).reference
        case .account: Account(id: "acc").reference
        case .invoice: Invoice(id: "inv").reference
        }
    }

    var description: String { reference.description }
}

/// A naive model of ownership (declared `.cascadeOrphans` node children and dynamic `owns`),
/// free relationships, a `.deny` relation (the account's invoice) and a unique relation (movie
/// prequels), with the erasure rules Relata documents.
struct OwnershipReference {
    var alive: Set<PoolEntity> = []
    var children: [String: [String]] = [:]
    var owns: Set<[PoolEntity]> = []
    var free: Set<Set<PoolEntity>> = []
    var accountHasInvoice = false
    var movies: Set<String> = []
    var prequel: [String: String] = [:]

    func owned(by entity: PoolEntity) -> Set<PoolEntity> {
        var result = Set(owns.filter { $0[0] == entity }.map { $0[1] })
        if case .node(let id) = entity { result.formUnion((children[id] ?? []).map(PoolEntity.node)) }
        return result
    }

    func owners(of entity: PoolEntity) -> Set<PoolEntity> {
        var result = Set(owns.filter { $0[1] == entity }.map { $0[0] })
        if case .node(let id) = entity {
            result.formUnion(children.filter { $0.value.contains(id) }.map { PoolEntity.node($0.key) })
        }
        return result
    }

    /// What erasing `entity` erases: it, then every entity whose owners are all erased.
    func erasure(of entity: PoolEntity) -> Set<PoolEntity> {
        var erased: Set<PoolEntity> = [entity]
        var queue = [entity]
        while let next = queue.popLast() {
            for owned in owned(by: next) where alive.contains(owned) && !erased.contains(owned) {
                if owners(of: owned).isSubset(of: erased) {
                    erased.insert(owned)
                    queue.append(owned)
                }
            }
        }
        return erased
    }

    /// Whether erasing `entity` is refused by the account's `.deny` relation.
    func isDenied(_ entity: PoolEntity) -> Bool {
        let erased = erasure(of: entity)
        return accountHasInvoice && erased.contains(.account) && !erased.contains(.invoice)
    }

    mutating func erase(_ entity: PoolEntity) {
        guard alive.contains(entity) else { return }
        let erased = erasure(of: entity)
        alive.subtract(erased)
        for case .node(let id) in erased { children[id] = nil }
        for key in Array(children.keys) {
            children[key]!.removeAll { erased.contains(.node($0)) }
            if children[key]!.isEmpty { children[key] = nil }
        }
        owns = owns.filter { erased.isDisjoint(with: $0) }
        free = free.filter { erased.isDisjoint(with: $0) }
        if erased.contains(.account) || erased.contains(.invoice) { accountHasInvoice = false }
    }
}
