@testable import RelataCore
import Testing

@Suite("Parallel payload coding")
struct ParallelCodingTests {
    struct Odd: Error, Equatable { let value: Int }

    @Test("Mapping on every core gives the sequential result, in order, for small and large inputs")
    func sameAsSequential() throws {
        for count in [0, 1, 511, 512, 10_000] {
            let input = Array(0..<count)
            #expect(try ParallelCoding.map(input) { $0 * 3 + 1 } == input.map { $0 * 3 + 1 })
        }
    }

    @Test("An error in any element is rethrown")
    func errorsAreRethrown() {
        let input = Array(0..<5_000)
        #expect(throws: Odd(value: 4_001)) {
            try ParallelCoding.map(input) { value in
                if value == 4_001 { throw Odd(value: value) }
                return value
            }
        }
    }
}
