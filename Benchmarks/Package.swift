// swift-tools-version: 6.1
import PackageDescription

// The benchmark package: Streams against OpenCombine, swift-async-algorithms and a hand-written floor. It is a package of its
// own so that Streams itself keeps no dependencies; nothing here is part of `swift test`.
//
// Run everything (release mode is what the numbers mean):
//     swift run -c release --package-path Benchmarks streams-benchmarks
// Smoke test with tiny sizes:
//     swift run -c release --package-path Benchmarks streams-benchmarks --quick
// The soak run (60 s by default; --seconds N for longer):
//     Scripts/soak.sh

// The Streams package is the directory above; SwiftPM names a path dependency after its directory.
let streamsPackage = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "Streams"

let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "StreamsBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
    ],
    targets: [
        // Counts heap allocations by replacing malloc & co. in the benchmark executable.
        .target(name: "CAllocCounter"),
        // Timing, allocation probes and the data shared by every implementation.
        .target(name: "BenchmarkCore", dependencies: ["CAllocCounter"], swiftSettings: settings),
        // One module per implementation, so each file sees only its own framework's names.
        .target(
            name: "StreamsScenarios",
            dependencies: ["BenchmarkCore", .product(name: "Streams", package: streamsPackage)],
            swiftSettings: settings),
        .target(
            name: "OpenCombineScenarios",
            dependencies: [
                "BenchmarkCore",
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ],
            swiftSettings: settings),
        .target(
            name: "AsyncAlgorithmsScenarios",
            dependencies: [
                "BenchmarkCore", .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ],
            swiftSettings: settings),
        .target(name: "FloorScenarios", dependencies: ["BenchmarkCore"], swiftSettings: settings),
        .executableTarget(
            name: "streams-benchmarks",
            dependencies: [
                "BenchmarkCore", "StreamsScenarios", "OpenCombineScenarios", "AsyncAlgorithmsScenarios",
                "FloorScenarios",
            ],
            swiftSettings: settings),
        // The soak run (Scripts/soak.sh): Streams' publishers under several threads for a fixed time,
        // with subscribers coming and going, checked as they go, and the process's memory watched.
        .executableTarget(
            name: "streams-soak",
            dependencies: ["BenchmarkCore", .product(name: "Streams", package: streamsPackage)],
            swiftSettings: settings),
    ],
    swiftLanguageModes: [.v6]
)
