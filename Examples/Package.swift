// swift-tools-version: 6.1
import PackageDescription

// A mail app whose single source of truth is a SQLite database: GRDB observes the database, Streams
// turns the observed values into a store, and a few hundred observers each follow one slice of it.
// A package of its own, so that Streams itself keeps no dependencies.
//
//     swift run --package-path Examples mail-store    # the comparison table
//     swift test --package-path Examples              # the example's tests
//
// GRDB links the system's SQLite: on Debian and Ubuntu, `apt-get install libsqlite3-dev`.

// The Streams package is the directory above; SwiftPM names a path dependency after its directory.
let streamsPackage = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "Streams"

let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "StreamsExamples",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "mail-store", targets: ["mail-store"])
    ],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // The mail app's model: the database, the store that mirrors it, and its observers.
        .target(
            name: "Mail",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Streams", package: streamsPackage),
            ],
            swiftSettings: settings),
        // Plays a scripted sequence of writes and prints how many observers each one woke.
        .executableTarget(name: "mail-store", dependencies: ["Mail"], swiftSettings: settings),
        .testTarget(name: "MailTests", dependencies: ["Mail"], swiftSettings: settings),
    ],
    swiftLanguageModes: [.v6]
)
