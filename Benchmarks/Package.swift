// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so that the library's tests never time anything.
// Run: swift run -c release --package-path Benchmarks relata-bench
let package = Package(
    name: "RelataBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Relata", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", "1.33.0"..<"1.34.0"),
    ],
    targets: [
        .executableTarget(
            name: "relata-bench",
            dependencies: [
                .product(name: "Relata", package: "Relata"),
                .product(name: "ChatExample", package: "Relata"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "RelataPostgres", package: "Relata"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Sources/RelataBench"
        )
    ],
    swiftLanguageModes: [.v6]
)
