// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Relata",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .macCatalyst(.v18)],
    products: [
        .library(name: "Relata", targets: ["Relata"]),
        .library(name: "RelataSQLite", targets: ["RelataSQLite"]),
        // PostgreSQL storage, for stores shared by processes on several machines.
        .library(name: "RelataPostgres", targets: ["RelataPostgres"]),
        // The behaviour every storage backend must have, for backend authors' tests.
        .library(name: "RelataStoreConformance", targets: ["RelataStoreConformance"]),
        .executable(name: "relata-demo", targets: ["RelataDemo"]),
        // The chat models of SwiftletModel's README, with a full-text index of messages: the demo's.
        .library(name: "ChatExample", targets: ["ChatExample"]),
        // The benchmarks (Benchmarks/README.md): run in release, never by the tests.
        .executable(name: "relata-bench", targets: ["RelataBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.7.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", "1.33.0"..<"1.34.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        .target(
            name: "RelataCore",
            dependencies: [.product(name: "Collections", package: "swift-collections")]
        ),
        // What `@EntityModel` expands to, in a library of its own: the macro tests link it, not
        // the macro target (a test target that links a macro target makes SwiftPM build every
        // target of the package, and its dependencies, a second time for the host).
        .target(
            name: "RelataMacroExpansion",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        .macro(
            name: "RelataMacros",
            dependencies: [
                "RelataMacroExpansion",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "RelataSQLite",
            dependencies: [
                "RelataCore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "RelataPostgres",
            dependencies: [
                "RelataCore", .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .target(name: "Relata", dependencies: ["RelataCore", "RelataSQLite", "RelataMacros"]),
        .target(name: "RelataStoreConformance", dependencies: ["Relata"]),
        .target(name: "ChatExample", dependencies: ["Relata"]),
        // A child process for the crash-safety test: writes to a store in a loop until killed.
        .executableTarget(name: "RelataCrashWriter", dependencies: ["Relata", "ChatExample"]),
        // Child processes for the tests (and benchmark) of stores shared between processes.
        .executableTarget(name: "RelataWorker", dependencies: ["Relata", "RelataPostgres", "ChatExample"]),
        .executableTarget(
            name: "RelataDemo",
            dependencies: ["Relata", "RelataPostgres", "ChatExample", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Workloads W1–W3 beside hand-written GRDB and postgres-nio (Benchmarks/README.md).
        .executableTarget(
            name: "RelataBench",
            dependencies: [
                "Relata", "RelataCore", "RelataSQLite", "RelataPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "RelataTests",
            dependencies: [
                "Relata",
                "RelataCore",
                "RelataSQLite",
                "ChatExample",
                "RelataCrashWriter",
                "RelataWorker",
                "RelataDemo",
                "RelataStoreConformance",
                "RelataPostgres",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // SwiftletModel's own test suite (a24c84e, May 2026) with only its import renamed, and the
        // oracles it takes from SwiftletModel's internals (Oracles/).
        .testTarget(
            name: "SwiftletModelTests",
            dependencies: [
                "Relata",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
                .product(name: "SnapshotTestingCustomDump", package: "swift-snapshot-testing"),
            ],
            exclude: ["CodableTests/__Snapshots__", "QueriesTests/__Snapshots__"],
            // The language mode the suite was written in (SwiftletModel's tools version 5.9).
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "RelataMacrosTests",
            dependencies: [
                "RelataMacroExpansion",
                .product(name: "MacroTesting", package: "swift-macro-testing"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
