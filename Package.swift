// swift-tools-version: 6.0
import PackageDescription

/// Settings every target shares: Swift 6 language mode is the tools-version default; these add the
/// upcoming features the code base is written against.
let sharedSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Streams",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Streams", targets: ["Streams"]),
        .library(name: "StreamsTesting", targets: ["StreamsTesting"]),
        // Opt-in: `URLSession.dataTaskPublisher`, which links the toolchain's networking library
        // (FoundationNetworking on Linux); `Streams` itself links no networking.
        .library(name: "StreamsNetworking", targets: ["StreamsNetworking"]),
        .executable(name: "streams-demo", targets: ["StreamsDemo"]),
    ],
    targets: [
        .target(name: "Streams", dependencies: ["CStreamsPlatform"], swiftSettings: sharedSettings),
        // The kernel wait (futex) and the spin hint behind Streams' lock on Linux: C, because Swift
        // cannot call the variadic `syscall`. Internal to Streams; not a product.
        .target(name: "CStreamsPlatform"),
        .target(name: "StreamsTesting", dependencies: ["Streams"], swiftSettings: sharedSettings),
        .target(name: "StreamsNetworking", dependencies: ["Streams"], swiftSettings: sharedSettings),
        .executableTarget(
            name: "StreamsDemo", dependencies: ["Streams", "StreamsTesting"], swiftSettings: sharedSettings),
        // Draws the operator reference pages' marble diagrams from real runs (Scripts/draw-marble-diagrams.sh);
        // not a product: nothing depends on it.
        .executableTarget(
            name: "StreamsMarbleDiagrams", dependencies: ["Streams", "StreamsTesting"], swiftSettings: sharedSettings),
        .testTarget(
            name: "StreamsTests", dependencies: ["Streams", "StreamsTesting"], swiftSettings: sharedSettings),
        .testTarget(
            name: "StreamsTestingTests", dependencies: ["Streams", "StreamsTesting"],
            swiftSettings: sharedSettings),
        .testTarget(
            name: "StreamsNetworkingTests", dependencies: ["StreamsNetworking", "StreamsTesting"],
            swiftSettings: sharedSettings),
        // Combine-style code must compile unchanged in the Swift 5 language mode too.
        .testTarget(
            name: "StreamsSwift5Tests", dependencies: ["Streams"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ],
    swiftLanguageModes: [.v6]
)
